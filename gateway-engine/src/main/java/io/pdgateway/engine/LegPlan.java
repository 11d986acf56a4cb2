package io.pdgateway.engine;

/**
 * The legs of one PD request as an adapter planned them.
 *
 * @param decodeBody the decode body for a {@link LegSchedule#CONCURRENT} plan; null for a sequential one, whose decode
 *     body comes from {@link EngineAdapter#decodeBody} once the prefill answered
 * @param prefillAbort how to ask the prefill pod to drop this request, or null when closing the connection is the way
 * @param decodeAbort the same for the decode pod
 */
public record LegPlan(LegSchedule schedule, byte[] prefillBody, byte[] decodeBody, AbortCall prefillAbort,
        AbortCall decodeAbort) {

    public static LegPlan sequential(byte[] prefillBody) {
        return new LegPlan(LegSchedule.SEQUENTIAL, prefillBody, null, null, null);
    }
}
