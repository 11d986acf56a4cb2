package io.pdgateway.bench.load;

import io.pdgateway.workload.run.ChunkGapSink;
import io.pdgateway.workload.run.RequestResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * Where a load run sends its streaming chat completions: one endpoint (a pod, a gateway, a proxy), or a client that
 * runs a request's prefill and decode legs itself. Every send ends in a result, never a failed future.
 */
public interface ChatTarget {
    /** Where the requests go, for reports. */
    Endpoint endpoint();

    /** The client's request body: one user message, streaming, exactly {@code maxTokens} asked for. */
    Buffer body(String prompt, int maxTokens);

    /**
     * Sends {@code body} and completes with what came back (never fails: failures are results with an error).
     *
     * @param startMillis when this send happens on the run's clock, copied into the result
     * @param lagMillis   how late against schedule, copied into the result
     */
    Future<RequestResult> send(Buffer body, int promptTokens, String sessionKey, long timeoutMillis,
            double startMillis, double lagMillis, ChunkGapSink gaps);

    Future<Void> close();
}
