package io.pdgateway.core.config;

import java.util.Locale;

/**
 * How the legs of a PD request are built for each engine: vLLM's default KV connector and TensorRT-LLM's machine id
 * and schedule style.
 *
 * @param kvConnectorType AIBRIX_KV_CONNECTOR_TYPE, lower case; a prefill pod's own label wins over it
 */
public record EngineSettings(String kvConnectorType, int trtMachineId, TrtScheduleStyle trtScheduleStyle) {

    public static EngineSettings read(KnobSource env) {
        return new EngineSettings(env.get(Knobs.KV_CONNECTOR_TYPE).toLowerCase(Locale.ROOT),
                env.get(Knobs.TRT_MACHINE_ID), env.get(Knobs.TRT_SCHEDULE_STYLE));
    }
}
