package io.pdgateway.core.config;

/**
 * The bounds of every leg to a pod that the spec leaves open, the rule for a client that stops reading, outlier
 * ejection, and the scraper's budget. pd-gateway's own settings (PD_GATEWAY_*); 0 disables a timeout.
 *
 * @param firstByteSeconds a standard pod's stream: seconds until its first body chunk
 * @param streamIdleSeconds a standard pod's stream: longest gap between two chunks
 * @param responseSeconds a non-streaming answer in full: a standard pod's, and a decode pod's while the spec's
 *     AIBRIX_DECODE_RESPONSE_TIMEOUT is 0
 * @param clientWriteStallSeconds how long a client that stopped reading may keep the answer waiting
 * @param outlierConsecutiveFailures connection or scrape failures in a row that eject a pod
 * @param outlierBaseEjectionMillis the first ejection; each further one in a row doubles it
 * @param outlierMaxEjectionMillis the longest ejection
 * @param scrapeMaxPerInterval scrapes started per refresh interval at most
 * @param scrapeMaxBackoffMillis the longest pause between two scrapes of a failing pod
 * @param connections legs per pod at once, and the wait for one beyond that
 */
public record UpstreamSettings(double firstByteSeconds, double streamIdleSeconds, double responseSeconds,
        double clientWriteStallSeconds, int outlierConsecutiveFailures, long outlierBaseEjectionMillis,
        long outlierMaxEjectionMillis, int scrapeMaxPerInterval, long scrapeMaxBackoffMillis,
        PodConnectionLimits connections) {

    public static UpstreamSettings read(KnobSource env) {
        return new UpstreamSettings(env.get(Knobs.UPSTREAM_FIRST_BYTE_TIMEOUT), env.get(Knobs.UPSTREAM_STREAM_IDLE_TIMEOUT),
                env.get(Knobs.UPSTREAM_RESPONSE_TIMEOUT), env.get(Knobs.CLIENT_WRITE_STALL_TIMEOUT),
                (int) Math.ceil(env.get(Knobs.OUTLIER_CONSECUTIVE_FAILURES)),
                env.get(Knobs.OUTLIER_BASE_EJECTION_MS).longValue(),
                Math.max(env.get(Knobs.OUTLIER_BASE_EJECTION_MS).longValue(),
                        env.get(Knobs.OUTLIER_MAX_EJECTION_MS).longValue()),
                (int) Math.ceil(env.get(Knobs.SCRAPE_MAX_PER_INTERVAL)), env.get(Knobs.SCRAPE_MAX_BACKOFF_MS).longValue(),
                PodConnectionLimits.read(env));
    }
}
