package io.pdgateway.core.routing;

import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import java.util.function.Function;

/** The load view of one routing decision: the ledger's counters, the drain rates and scraped metrics as of {@code now}. */
public final class ClusterLoad implements LoadView {
    private final RequestLedger ledger;
    private final TokenLedger tokens;
    private final Function<Pod, PodMetrics> metrics;
    private final long nowNanos;

    public ClusterLoad(RequestLedger ledger, TokenLedger tokens, Function<Pod, PodMetrics> metrics, long nowNanos) {
        this.ledger = ledger;
        this.tokens = tokens;
        this.metrics = metrics;
        this.nowNanos = nowNanos;
    }

    @Override
    public long activeTokens(Pod pod) {
        return tokens.activeTokens(pod.id());
    }

    @Override
    public long kvTokens(Pod pod) {
        return tokens.kvTokens(pod.id());
    }

    @Override
    public long decodeTokens(Pod pod) {
        return tokens.decodeTokens(pod.id());
    }

    @Override
    public double decodeAgeSeconds(Pod pod) {
        return tokens.decodeAgeSeconds(pod.id(), nowNanos);
    }

    @Override
    public int inFlightPrefills(Pod pod) {
        return ledger.inFlightPrefills(pod);
    }

    @Override
    public int runningRequests(Pod pod) {
        return ledger.runningRequests(pod);
    }

    @Override
    public int pendingDecodes(Pod pod) {
        return ledger.pendingDecodes(pod);
    }

    @Override
    public boolean hasRunningMetric(Pod pod) {
        return ledger.hasRunningCounter(pod);
    }

    @Override
    public double drainRate(Pod pod) {
        return ledger.drain().rate(pod.id(), nowNanos);
    }

    @Override
    public PodMetrics metrics(Pod pod) {
        PodMetrics m = metrics.apply(pod);
        return m == null ? PodMetrics.ABSENT : m;
    }
}
