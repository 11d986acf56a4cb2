package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SizeMeasurementTest {
    @Test
    void roundsMeasureTheTargetsInTurnForwardThenBackward_soEveryTargetHoldsEveryPlaceAlike() {
        Map<String, Integer> targets = new LinkedHashMap<>();
        for (String name : List.of("direct", "pd-gateway", "pd-gateway:same", "nginx")) {
            targets.put(name, targets.size());
        }

        List<List<String>> rounds = List.of(0, 1, 2, 3).stream().map(round -> SizeMeasurement.inRoundOrder(targets,
                round).stream().map(Map.Entry::getKey).toList()).toList();

        assertThat(rounds).containsExactly(
                List.of("direct", "pd-gateway", "pd-gateway:same", "nginx"),
                List.of("nginx", "pd-gateway:same", "pd-gateway", "direct"),
                List.of("direct", "pd-gateway", "pd-gateway:same", "nginx"),
                List.of("nginx", "pd-gateway:same", "pd-gateway", "direct"));
        assertThat(targets.keySet()).containsExactly("direct", "pd-gateway", "pd-gateway:same", "nginx");
    }
}
