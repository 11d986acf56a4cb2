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
 * least-request (reference §5.5; also the standard-pod fallback): the pod with the fewest running + pending requests,
 * a uniformly random one among equals. Covers: the count, pending counted, a pod never routed to counting 0, engine
 * metrics not read, ties spread over every tied pod whatever their list position, empty and single candidates.
 */
class LeastRunningPodPickerTest {

    static Stream<PickRow> rows() {
        return Stream.of(
                row("no candidates_none", plain(), request(), Picks.NONE),
                row("single pod_it", plain("a"), request().load(new FixedLoad().running("a", 9)), "a"),
                // Running {4, 1, 3} → b.
                row("fewest running_picked", plain("a", "b", "c"),
                        request().load(new FixedLoad().running("a", 4).running("b", 1).running("c", 3)), "b"),
                // a: 1 running + 3 pending = 4; b: 2 → b.
                row("pending_counted", plain("a", "b"),
                        request().load(new FixedLoad().running("a", 1).pending("a", 3).running("b", 2)), "b"),
                // b was never routed to: 0 < 3 → b.
                row("never routed pod_counts zero", plain("a", "b"), request().load(new FixedLoad().running("a", 3)),
                        "b"),
                // a queues 10 in the engine at 99 % KV, but runs 0 of ours; b runs 1 → a.
                row("engine metrics_not read", plain("a", "b"),
                        request().load(new FixedLoad().waiting("a", 10).kv("a", 0.99).running("b", 1)), "a"),
                // {2, 2, 5}: a and b tie.
                row("two tied_both picked", plain("a", "b", "c"),
                        request().load(new FixedLoad().running("a", 2).running("b", 2).running("c", 5)), "a", "b"),
                // {5, 2, 2}: the tie at the end of the list spreads too.
                row("tie at list end_both picked", plain("a", "b", "c"),
                        request().load(new FixedLoad().running("a", 5).running("b", 2).running("c", 2)), "b", "c"),
                // All idle: a three-way tie.
                row("all idle_all picked", plain("a", "b", "c"), request(), "a", "b", "c"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void pick(PickRow row) {
        row.check(new LeastRunningPodPicker());
    }
}
