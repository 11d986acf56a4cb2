package io.pdgateway.bench.jmh;

import io.pdgateway.core.session.Routed;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One pd routing decision as the server makes it: through the {@link RoutingSession} (the whole cascade, steps 0-5,
 * the charge and the prefix-cache hold under the model's lock) and the release of its lease, over a model of N pods in
 * N/2 rolesets with live-looking load: one earlier request in flight per pod, random engine metrics, and prefix-cache
 * views holding earlier turns of 64 conversations behind one shared system prompt ({@link BenchModel}). The request is
 * a 1,000- or 8,000-token prompt continuing one of those conversations, measured as the server measures it for the
 * admission's needs (hashed into prefix blocks only when the policy reads the prefix cache). By default each decision
 * is a new turn (its last tenth new text, {@link BenchModel#newTurns}), so the hold adds and, on a full pod, evicts
 * blocks as in production; {@code -p turns=repeat} routes one prompt over and over, as the benchmark did before
 * 2026-12-03 (every hold then finds all its blocks: cheaper, and not what a conversation costs). The rewrite of the
 * new blocks' hashes (50 longs at 8k tokens) is inside the measured call. The client did not ask
 * for x-pd-decision, so the decision's scores are the model's working arrays. The session's time advances 500 µs a
 * decision, not with the machine's clock, so every run makes the same decisions ({@link DecisionBatches}). Sampled,
 * so the report has percentiles; but JMH's sampled p99 overstates a thin tail of an operation this fast
 * ({@link EveryOperation}), so each decision is also timed on its own and the percentiles of all of them printed
 * beside JMH's ("every decision of the trial"): the acceptance figure is that p99.
 */
public class RoutingDecisionBenchmark extends MicrosecondBenchmark {
    @Param({"8", "64", "512", "4096"})
    int pods;

    /** Prefill/decode policy: every prefill policy once, with the decode policies spread over them. */
    @Param({"prefix_cache/load_balancing", "least_request/least_request", "conductor/conductor",
        "token_load/token_load", "hybrid_cache_load/token_load", "predicted_ttft/token_load"})
    String policies;

    /** Prompt length: a chat turn, and a long RAG or agent prompt (8k tokens = 500 blocks of the cache model). */
    @Param({"1000", "8000"})
    int promptTokens;

    /** {@code new}: every decision a new turn; {@code repeat}: one prompt again and again. */
    @Param({"new"})
    String turns;

    private DecisionBatches decisions;

    public RoutingDecisionBenchmark() {
        super("decision");
    }

    @Setup
    public void setUp() {
        decisions = new DecisionBatches(pods, policies, promptTokens, !turns.equals("repeat"));
    }

    @Benchmark
    public Routed route() {
        long start = System.nanoTime();
        Routed routed = decisions.decide(decisions.next());
        timed.record(System.nanoTime() - start);
        return routed;
    }
}
