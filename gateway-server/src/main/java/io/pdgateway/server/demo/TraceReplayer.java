package io.pdgateway.server.demo;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open-loop replay: each trace request is sent at its recorded arrival time divided by the speed-up, whether or not
 * earlier ones have finished (a closed loop would hide queueing, the thing routing is meant to fix).
 */
public final class TraceReplayer {
    /** How often the progress bar redraws. */
    static final long PROGRESS_INTERVAL_MS = 250;
    static final int BAR_WIDTH = 30;

    private final Vertx vertx;
    private final StreamingChatClient client;
    private final PrintStream out;

    public TraceReplayer(Vertx vertx, StreamingChatClient client, PrintStream out) {
        this.vertx = vertx;
        this.client = client;
        this.out = out;
    }

    /**
     * @param speedup how much faster than recorded the arrivals come (2 = twice the rate)
     * @param maxOutputTokens cap on each request's output length, to bound the demo's duration
     * @param timeoutMillis idle timeout of each request: a stalled stream counts as an error, never a hang
     */
    public Future<RouteSummary> replay(List<TraceRequest> trace, double speedup, int maxOutputTokens, long timeoutMillis) {
        RouteSummary summary = new RouteSummary();
        Promise<RouteSummary> finished = Promise.promise();
        if (trace.isEmpty()) {
            finished.complete(summary);
            return finished.future();
        }
        AtomicInteger remaining = new AtomicInteger(trace.size());
        long progress = vertx.setPeriodic(PROGRESS_INTERVAL_MS, id -> drawProgress(summary, trace.size()));
        for (int i = 0; i < trace.size(); i++) {
            TraceRequest request = trace.get(i);
            long seed = i;
            long delay = Math.max(1, (long) (request.arrivalMillis() / speedup));
            vertx.setTimer(delay, id -> client
                    .send(PromptSynthesizer.text(Math.max(1, request.promptTokens()), seed),
                            Math.max(1, Math.min(maxOutputTokens, request.outputTokens())), timeoutMillis)
                    .onComplete(ar -> {
                        summary.add(ar.succeeded() ? ar.result()
                                : new RequestResult("unrouted", false, -1, -1, String.valueOf(ar.cause())));
                        if (remaining.decrementAndGet() == 0) {
                            vertx.cancelTimer(progress);
                            drawProgress(summary, trace.size());
                            out.println();
                            finished.complete(summary);
                        }
                    }));
        }
        return finished.future();
    }

    private void drawProgress(RouteSummary summary, int total) {
        int done = summary.total();
        int filled = total == 0 ? BAR_WIDTH : done * BAR_WIDTH / total;
        out.printf(Locale.ROOT, "\r[%s%s] %d/%d requests, %d errors", "#".repeat(filled), " ".repeat(BAR_WIDTH - filled),
                done, total, summary.errors());
        out.flush();
    }
}
