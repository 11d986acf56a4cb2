package io.pdgateway.core.routing.pick;

import static io.pdgateway.core.PodBuilder.plain;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.PickRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.PickRow;
import io.pdgateway.core.routing.Picks;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * random (reference §5.5): any pod, uniformly, from the injected generator. Covers: every pod picked about equally
 * whatever its position, load not read, empty and single candidates.
 */
class RandomPodPickerTest {

    static Stream<PickRow> rows() {
        return Stream.of(
                row("no candidates_none", plain(), request(), Picks.NONE),
                row("single pod_it", plain("a"), request(), "a"),
                row("three pods_each picked", plain("a", "b", "c"), request(), "a", "b", "c"),
                // a runs 50 requests: random does not look.
                row("load_not read", plain("a", "b"), request().load(new FixedLoad().running("a", 50)), "a", "b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void pick(PickRow row) {
        row.check(new RandomPodPicker());
    }
}
