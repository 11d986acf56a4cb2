package io.pdgateway.bench.load;

import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.run.RequestResult;
import io.pdgateway.workload.run.RunRecorder;
import io.pdgateway.workload.run.RunRecording;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop load: each request is sent at its arrival time whether or not earlier ones have finished (a closed
 * loop would slow down with the server and hide the queueing that routing is meant to fix).
 *
 * <p>The calling thread is the dispatcher: it builds each prompt (a long one takes a millisecond, which must not
 * hold up an event loop), sends it, and redraws the progress line. Each send from this non-Vert.x thread lands on
 * the next event loop, so response handling spreads over all of them. A request that is sent late shows up in its
 * {@code lagMillis}: when the client itself is the bottleneck, the report says so.
 */
public final class LoadRunner {
    /** After the last arrival, the run waits this long beyond the per-request timeout, then gives up on stragglers. */
    static final long DEADLINE_GRACE_MS = 5_000;
    /** How long the dispatcher sleeps at most between checks (progress redraw, in-flight sampling). */
    static final long TICK_MS = 50;
    static final long SAMPLE_INTERVAL_MS = 1_000;

    private final ChatTarget client;
    private final ProgressLine progress;
    private final long timeoutMillis;
    private final int maxInFlight;
    /** The last body built and what it was built from: workloads that repeat one prompt build it once. */
    private LoadRequest lastBuilt;
    private Buffer lastBody;

    /**
     * @param progress      where the live progress bar goes ({@link ProgressLine#silent()} for none)
     * @param timeoutMillis the longest any one request may take before it counts as a timeout error
     */
    public LoadRunner(ChatTarget client, ProgressLine progress, long timeoutMillis) {
        this(client, progress, timeoutMillis, Integer.MAX_VALUE);
    }

    /**
     * A run that never has more than {@code maxInFlight} requests outstanding: an arrival past it waits for one to
     * end, and is sent late by that much. Not for measuring (that is open loop); for a warm-up, which must exercise
     * the target without piling up a queue it then has to live with (an open-loop warm-up of 200 KB prompts at twice
     * what the rig carries held 1,251 requests in flight and left the gateway at 5.3 GB resident).
     */
    public LoadRunner(ChatTarget client, ProgressLine progress, long timeoutMillis, int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, was " + maxInFlight);
        }
        this.client = client;
        this.progress = progress;
        this.timeoutMillis = timeoutMillis;
        this.maxInFlight = maxInFlight;
    }

    /** Replays the workload and returns once every request ended (or the run's deadline passed). Blocks: never call on an event loop. */
    public RunRecording run(LoadSchedule workload) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("LoadRunner.run blocks; call it from a plain thread");
        }
        RunRecorder recorder = new RunRecorder();
        List<LoadRequest> requests = workload.requests();
        long start = System.nanoTime();
        long allowance = TimeUnit.MILLISECONDS.toNanos(timeoutMillis + DEADLINE_GRACE_MS);
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(workload.spanMillis()) + allowance;
        Thread dispatcher = Thread.currentThread();
        long nextSample = start + TimeUnit.MILLISECONDS.toNanos(SAMPLE_INTERVAL_MS);
        int next = 0;
        long lastEnd = start;
        while (recorder.finishedCount() < requests.size() && System.nanoTime() < deadline) {
            long now = System.nanoTime();
            boolean full = false;
            while (next < requests.size() && arrival(start, requests.get(next)) <= now) {
                if (recorder.sentCount() - recorder.finishedCount() >= maxInFlight) {
                    full = true;
                    break;
                }
                send(requests.get(next), start, recorder, dispatcher);
                next++;
                now = System.nanoTime();
                if (capped()) {
                    deadline = Math.max(deadline, now + allowance); // sent late by the cap: still its whole timeout
                }
            }
            if (now >= nextSample) {
                recorder.sampleInFlight();
                nextSample += TimeUnit.MILLISECONDS.toNanos(SAMPLE_INTERVAL_MS);
            }
            progress.draw(requests.size(), recorder, (now - start) / 1e9);
            long wake = now + TimeUnit.MILLISECONDS.toNanos(TICK_MS);
            if (next < requests.size() && !full) {
                wake = Math.min(wake, arrival(start, requests.get(next)));
            }
            LockSupport.parkNanos(Math.max(0, wake - System.nanoTime()));
            lastEnd = System.nanoTime();
        }
        int abandoned = requests.size() - recorder.finishedCount();
        progress.finish(requests.size(), recorder, (lastEnd - start) / 1e9);
        return recorder.snapshot((lastEnd - start) / 1e9, abandoned);
    }

    private Buffer body(LoadRequest request) {
        if (lastBuilt == null || !lastBuilt.prompt().equals(request.prompt())
                || lastBuilt.outputTokens() != request.outputTokens()) {
            lastBody = client.body(request.prompt().text(), request.outputTokens());
            lastBuilt = request;
        }
        return lastBody.copy();
    }

    private boolean capped() {
        return maxInFlight != Integer.MAX_VALUE;
    }

    private static long arrival(long start, LoadRequest request) {
        return start + TimeUnit.MILLISECONDS.toNanos(request.arrivalMillis());
    }

    /** @param dispatcher woken by each end when the run is capped: a place may have come free */
    private void send(LoadRequest request, long start, RunRecorder recorder, Thread dispatcher) {
        long now = System.nanoTime();
        double lag = Math.max(0, (now - arrival(start, request)) / 1e6);
        Buffer body = body(request);
        double startMillis = (System.nanoTime() - start) / 1e6;
        recorder.sent();
        client.send(body, request.prompt().tokens(), request.sessionKey(), timeoutMillis, startMillis, lag, recorder)
                .onComplete(ar -> {
                    recorder.finished(ar.succeeded() ? ar.result() : RequestResult.failure(startMillis, lag,
                            request.prompt().tokens(), "client: " + ar.cause()));
                    if (capped()) {
                        LockSupport.unpark(dispatcher);
                    }
                });
    }
}
