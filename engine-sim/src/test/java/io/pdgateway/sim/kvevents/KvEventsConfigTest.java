package io.pdgateway.sim.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The --kv-events-config flag in vLLM's JSON shape: vLLM's defaults, and errors naming the offending key. */
class KvEventsConfigTest {

    @Test
    void vllmExample_parses() {
        KvEventsConfig c = KvEventsConfig.parse("{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\","
                + "\"endpoint\":\"tcp://*:5557\",\"replay_endpoint\":\"tcp://*:5558\",\"topic\":\"kv-events\"}");

        assertThat(c.publishes()).isTrue();
        assertThat(c.replayEndpoint()).isEqualTo("tcp://*:5558");
        assertThat(c.topic()).isEqualTo("kv-events");
        assertThat(c.bufferSteps()).isEqualTo(10_000);
    }

    @Test
    void defaults_areVllms_andPublishNothing() {
        KvEventsConfig c = KvEventsConfig.parse("{}");

        assertThat(c).isEqualTo(KvEventsConfig.DISABLED);
        assertThat(KvEventsConfig.parse("{\"enable_kv_cache_events\":true}").publishes()).isFalse();
    }

    @Test
    void badInput_namesTheKey() {
        assertThatThrownBy(() -> KvEventsConfig.parse("{\"endpont\":\"x\"}")).hasMessageContaining("endpont");
        assertThatThrownBy(() -> KvEventsConfig.parse("{\"publisher\":\"nats\"}")).hasMessageContaining("nats");
        assertThatThrownBy(() -> KvEventsConfig.parse("{\"buffer_steps\":0}")).hasMessageContaining("buffer_steps");
        assertThatThrownBy(() -> KvEventsConfig.parse("[1]")).hasMessageContaining("object");
        assertThatThrownBy(() -> KvEventsConfig.parse("{")).hasMessageContaining("not JSON");
    }
}
