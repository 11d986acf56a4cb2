package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.server.routing.RemoteTokenizer;
import io.pdgateway.sim.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote in the ext_proc picker: before it picks, the picker asks one of the model's
 * pods for the prompt's tokens, as serve does, from the stream's own context.
 */
class EppRemoteTokenizerIT {
    @AutoClose
    private EppCluster cluster;

    @Test
    void thePickerAsksAPodsTokenizeBeforeItPicks() throws Exception {
        cluster = new EppCluster("vllm").standard("standard-0").standard("standard-1")
                .startPicker(Map.of("ROUTING_ALGORITHM", "prefix-cache",
                        "AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE", "remote"));
        byte[] client = EppCluster.chat("tokenize me first", 4, true).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            EppCluster.Pick pick = EppCluster.askBuffered(envoy, client);

            assertThat(pick.endpoint()).isIn(cluster.address("standard-0"), cluster.address("standard-1"));
            List<RecordedRequest> asked = Stream.of("standard-0", "standard-1")
                    .flatMap(name -> cluster.sim(name).recordedRequests().stream())
                    .filter(r -> r.path().equals("/tokenize")).toList();
            assertThat(asked).hasSize(1);
            assertThat(asked.get(0).json().at("/messages/0/content").asText()).isEqualTo("tokenize me first");
            assertThat(cluster.gateway().metrics().scrape())
                    .contains(RemoteTokenizer.REQUESTS + "_total{outcome=\"ok\"} 1.0");
            envoy.reset();
        }
        cluster.assertQuiescent();
    }
}
