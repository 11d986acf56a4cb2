package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecStrategies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a --gateway-variant says: JVM options and gateway settings apart, and how a PD run starts the variant. */
class GatewayVariantTest {
    @Test
    void theWords_splitIntoJvmOptionsAndSettings_inTheirOrder() {
        GatewayVariant variant = GatewayVariant.parse("loop1=-Xmx256m PD_GATEWAY_EVENT_LOOPS=1 -XX:+UseSerialGC");

        assertThat(variant.target()).isEqualTo("pd-gateway:loop1");
        assertThat(variant.jvmOptions()).containsExactly("-Xmx256m", "-XX:+UseSerialGC");
        assertThat(variant.settings()).containsExactly(Map.entry("PD_GATEWAY_EVENT_LOOPS", "1"));
        assertThat(variant.describe()).isEqualTo("-Xmx256m -XX:+UseSerialGC PD_GATEWAY_EVENT_LOOPS=1");
    }

    @Test
    void aVariantWithoutAName_orWithoutAnythingToChange_isRefused() {
        assertThatThrownBy(() -> GatewayVariant.parse("-Xmx256m")).hasMessageContaining("NAME=OPTIONS");
        assertThatThrownBy(() -> GatewayVariant.parse("empty=  ")).hasMessageContaining("at least one");
        assertThatThrownBy(() -> GatewayVariant.parse("Upper=-Xmx256m")).hasMessageContaining("lower-case");
    }

    @Test
    void inAPdRun_theVariantRoutesPd_unlessItNamesItsOwnAlgorithm() {
        GatewayVariant loops = GatewayVariant.parse("loop1=PD_GATEWAY_EVENT_LOOPS=1");
        assertThat(PdOverheadBenchmark.routingPd(loops)).containsExactly(Map.entry("PD_GATEWAY_EVENT_LOOPS", "1"),
                Map.entry(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.PD));

        GatewayVariant own = new GatewayVariant("own", List.of(), Map.of(SpecEnv.ROUTING_ALGORITHM, "random"));
        assertThat(PdOverheadBenchmark.routingPd(own)).containsExactly(Map.entry(SpecEnv.ROUTING_ALGORITHM, "random"));
    }

    @Test
    void trtllmGen_everyGatewaySchedulesGenerationFirst_unlessAVariantNamesItsOwnStyle_otherEnginesAsGiven() {
        Map<String, String> pd = Map.of(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.PD);
        assertThat(PdOverheadBenchmark.scheduled("trtllm-gen", pd)).containsEntry(SpecEnv.TRT_SCHEDULE_STYLE,
                "generation_first").containsEntry(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.PD);
        assertThat(PdOverheadBenchmark.scheduled("trtllm", pd)).isEqualTo(pd);

        Map<String, String> own = Map.of(SpecEnv.TRT_SCHEDULE_STYLE, "context_first");
        assertThat(PdOverheadBenchmark.scheduled("trtllm-gen", own)).isEqualTo(own);
    }
}
