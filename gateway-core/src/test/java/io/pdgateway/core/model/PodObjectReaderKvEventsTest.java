package io.pdgateway.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.spec.SpecLabels;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The KV-event endpoint keys reach the routable pod from annotations (full endpoints) or labels (ports), annotation first. */
class PodObjectReaderKvEventsTest {
    private static final String ENDPOINT = PodObjectReader.KV_EVENTS_PREFIX + "endpoint";

    private static Pod read(Map<String, String> labels, Map<String, String> annotations) {
        return PodObjectReader.toPod(new PodObject("ns", "p", labels, annotations, "10.0.0.7", false, false),
                new ArrayList<>());
    }

    @Test
    void annotation_isCarriedOnThePod_andWinsOverALabel() {
        Pod pod = read(Map.of(SpecLabels.MODEL_NAME, "m", ENDPOINT, "5557"),
                Map.of(ENDPOINT, "tcp://*:6000", "unrelated/annotation", "x"));
        assertThat(pod.labels()).containsEntry(ENDPOINT, "tcp://*:6000").doesNotContainKey("unrelated/annotation");
    }

    @Test
    void label_aloneIsKept_andPodsWithoutEitherAreUnchanged() {
        assertThat(read(Map.of(SpecLabels.MODEL_NAME, "m", ENDPOINT, "5557"), Map.of()).labels())
                .containsEntry(ENDPOINT, "5557");
        assertThat(read(Map.of(SpecLabels.MODEL_NAME, "m"), Map.of()).labels()).containsOnlyKeys(SpecLabels.MODEL_NAME);
    }
}
