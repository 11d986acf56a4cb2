package io.pdgateway.routingsim.run;

import io.pdgateway.routingsim.engine.EngineCounters;
import io.pdgateway.routingsim.engine.EngineRole;
import io.pdgateway.routingsim.engine.SimEngine;

/** One pod's totals at the end of a run, for imbalance and cache statistics. */
public record PodSummary(String name, EngineRole role, long busyNanos, long generatedTokens, long promptTokens,
        long prefixQueriedTokens, long prefixHitTokens, long finished, long steps) {

    static PodSummary of(SimEngine engine) {
        EngineCounters c = engine.counters();
        return new PodSummary(engine.pod().name(), engine.role(), c.busyNanos(), c.generatedTokens(), c.promptTokens(),
                c.prefixQueriedTokens(), c.prefixHitTokens(), c.finished(), c.steps());
    }
}
