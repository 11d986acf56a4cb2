package io.pdgateway.core.routing;

import io.pdgateway.core.cache.PrefixDemand;
import io.pdgateway.core.ledger.LedgerRows;
import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.MetricsRows;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.PodSlots;
import io.pdgateway.core.model.ScrapedMetrics;
import io.pdgateway.core.predict.PrefillModels;
import io.pdgateway.core.predict.PrefillRows;
import io.pdgateway.core.routing.score.SideReads;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The load view of one routing decision as of {@code now}: this replica's ledgers plus the other replicas' charges,
 * the drain rates and the scraped metrics. One instance serves one decision, on one thread.
 */
public final class ClusterLoad implements LoadView {
    private final RequestLedger ledger;
    private final TokenLedger tokens;
    private final Function<Pod, PodMetrics> metrics;
    private final RemoteLoad remote;
    private final PrefillModels prefillModels;
    private final long nowNanos;
    private final long nowEpochMillis;
    /** Outlier detection's verdicts, or null when it ejected no pod (the usual case). */
    private Predicate<Pod> ejected;
    /** The model's ledger entries by slot, or null: then every read looks the pod up in the ledgers' maps. */
    private LedgerRows rows;
    /** The model's scraped metrics by slot (the same slots as {@link #rows}), or null: then read through the function. */
    private MetricsRows metricsRows;
    /** The metrics store's clock, read once for the decision, and its stale limit. */
    private long metricsNowNanos;
    private long metricsStaleAfterNanos;
    /**
     * The model's prefill-time queues by slot (the same slots as {@link #rows}), or null: then read by pod id. Brought
     * up to date on the decision's first read: only predicted_ttft reads them, and a decision that sends a pod its first
     * prefill leg adds a queue, so refreshing them for every decision would refill all of them after each such one.
     */
    private PrefillRows prefillRows;
    private boolean prefillRowsFresh;
    /** The model's reusable working arrays, or null: then stages allocate theirs. */
    private DecisionBuffers buffers;
    /** Whether the decision's score table will be read, so its scores must be its own arrays, not the buffers. */
    private boolean keepsScores;
    private PrefixDemand prefixDemand;
    /** What the decision's stages read of a whole side, kept for the stages after them. */
    private final SideReads sideReads = new SideReads();

    /**
     * @param remote what other gateway replicas charged (read from Redis), added to this replica's own counts
     */
    public ClusterLoad(RequestLedger ledger, TokenLedger tokens, Function<Pod, PodMetrics> metrics, RemoteLoad remote,
            long nowNanos, long nowEpochMillis) {
        this(ledger, tokens, metrics, remote, null, nowNanos, nowEpochMillis);
    }

    /** @param prefillModels each pod's fitted prefill-time model, or null where none is kept */
    public ClusterLoad(RequestLedger ledger, TokenLedger tokens, Function<Pod, PodMetrics> metrics, RemoteLoad remote,
            PrefillModels prefillModels, long nowNanos, long nowEpochMillis) {
        this.prefillModels = prefillModels;
        this.ledger = ledger;
        this.tokens = tokens;
        this.metrics = metrics;
        this.remote = remote;
        this.nowNanos = nowNanos;
        this.nowEpochMillis = nowEpochMillis;
    }

    public ClusterLoad(RequestLedger ledger, TokenLedger tokens, Function<Pod, PodMetrics> metrics, long nowNanos) {
        this(ledger, tokens, metrics, RemoteLoad.NONE, nowNanos, 0);
    }

    /**
     * This view reading the ledgers through {@code modelRows} (refreshed for this decision's model, with the same
     * ledgers and remote load as this view): the same values, without a map lookup per pod and counter.
     */
    public ClusterLoad reading(LedgerRows modelRows) {
        this.rows = modelRows;
        return this;
    }

    /**
     * This view reading the scraped metrics through {@code modelRows} (refreshed for this decision's model over the
     * same slots as the ledger rows, from {@code store}, which must be this view's metrics function): the same values
     * as the function's, staleness judged at one reading of the store's clock for the whole decision instead of one per
     * pod.
     */
    public ClusterLoad readingMetrics(MetricsRows modelRows, ScrapedMetrics store) {
        this.metricsRows = modelRows;
        this.metricsNowNanos = store.nowNanos();
        this.metricsStaleAfterNanos = store.staleAfterNanos();
        return this;
    }

    /**
     * This view reading the prefill-time models through {@code modelRows} (the model's, brought up to date over the
     * ledger rows' slots from this view's prefill models on the first read): the same values without a map lookup per
     * pod.
     */
    public ClusterLoad readingPrefillModels(PrefillRows modelRows) {
        this.prefillRows = modelRows;
        this.prefillRowsFresh = false;
        return this;
    }

    /** The pod's slot in the prefill rows (refreshed on the decision's first read), or -1: then read by pod id. */
    private int prefillSlot(Pod pod) {
        return prefillRowsReady() ? slot(pod) : -1;
    }

    /** Whether the prefill rows can be read by slot, refreshing them on the decision's first read. */
    private boolean prefillRowsReady() {
        if (prefillRows == null || rows == null) {
            return false;
        }
        if (!prefillRowsFresh) {
            prefillRows.refresh(rows.slots(), prefillModels);
            prefillRowsFresh = true;
        }
        return true;
    }

    /** This view lending the model's working arrays to the decision's stages (see {@link DecisionBuffers}). */
    public ClusterLoad using(DecisionBuffers modelBuffers) {
        this.buffers = modelBuffers;
        return this;
    }

    /**
     * This view's decision keeping its scores for its score table (the x-pd-decision header), or not: then the scores
     * too are the model's working arrays, and the decision's table is empty.
     */
    public ClusterLoad keepingScores(boolean keep) {
        this.keepsScores = keep;
        return this;
    }

    boolean keepsScores() {
        return keepsScores;
    }

    /** The model's working arrays, or null. */
    DecisionBuffers buffers() {
        return buffers;
    }

    /**
     * The slot of each pod of {@code pods} when the list is one the rows know by slot (one of their snapshot's side
     * lists), else null: then read pod by pod. Read only.
     */
    public int[] slotsOf(List<Pod> pods) {
        return rows == null || metricsRows == null ? null : rows.slots().slotsOf(pods);
    }

    /**
     * {@link #slotsOf}, also for a subset of a side list ({@link PodSubset}, what the stddev skip hands the prefill
     * policy): then the decision's working array {@code use}, valid until that use's next read. Null when not known.
     */
    public int[] slotsOfCandidates(List<Pod> pods, DecisionBuffers.Use use) {
        if (!(pods instanceof PodSubset subset)) {
            return slotsOf(pods);
        }
        int[] whole = slotsOf(subset.whole());
        if (whole == null) {
            return null;
        }
        int[] slots = DecisionBuffers.ints(this, use, subset.size());
        for (int i = 0; i < slots.length; i++) {
            slots[i] = whole[subset.position(i)];
        }
        return slots;
    }

    /** {@link #prefillState} of the pod in this slot ({@link #slotsOf}). */
    public boolean prefillStateAt(int slot, double[] into, int at) {
        if (prefillModels == null) {
            return false;
        }
        Pod pod = rows.slots().pod(slot);
        if (prefillRowsReady()) {
            prefillRows.copyState(slot, pod, nowNanos, into, at);
        } else {
            prefillModels.copyState(pod, nowNanos, into, at);
        }
        return true;
    }

    /** The snapshot's slots of this decision's model ({@link #slotsOf}), or null. */
    public PodSlots slots() {
        return rows == null ? null : rows.slots();
    }

    /** {@link #metrics} of the pod in this slot ({@link #slotsOf}). */
    public PodMetrics metricsAt(int slot) {
        return metricsRows.metrics(slot, metricsNowNanos, metricsStaleAfterNanos);
    }

    /**
     * A column of {@link #metricsAt}, NaN when the pod in this slot has no fresh scrape: read from the rows' copies,
     * without the scrape's object or its entry.
     */
    public double freshMetricAt(int slot, MetricsRows.Column column) {
        return metricsRows.fresh(column, slot, metricsNowNanos, metricsStaleAfterNanos);
    }

    /** {@link #runningIfObserved} of the pod in this slot ({@link #slotsOf}). */
    public int runningIfObservedAt(int slot) {
        int running = runningRequestsAt(slot);
        return rows.hasCounters(slot) || rows.remote(slot) != null ? running : -1 - running;
    }

    /** {@link #activeTokens} of the pod in this slot ({@link #slotsOf}). */
    public long activeTokensAt(int slot) {
        return rows.activeTokens(slot);
    }

    /** {@link #kvTokens} of the pod in this slot ({@link #slotsOf}). */
    public long kvTokensAt(int slot) {
        return rows.kvTokens(slot);
    }

    /** {@link #inFlightPrefills} of the pod in this slot ({@link #slotsOf}). */
    public int inFlightPrefillsAt(int slot) {
        return rows.inFlightPrefills(slot);
    }

    /** {@link #runningRequests} of the pod in this slot ({@link #slotsOf}). */
    public int runningRequestsAt(int slot) {
        RemoteLoad.PodLoad other = rows.remote(slot);
        return rows.runningRequests(slot) + (other == null ? 0 : (int) other.running());
    }

    /** {@link #decodeTokens} of the pod in this slot ({@link #slotsOf}). */
    public long decodeTokensAt(int slot) {
        RemoteLoad.PodLoad other = rows.remote(slot);
        return rows.decodeTokens(slot) + (other == null ? 0 : other.decodeTokens());
    }

    /** {@link #decodeAgeSeconds} of the pod in this slot ({@link #slotsOf}). */
    public double decodeAgeSecondsAt(int slot) {
        RemoteLoad.PodLoad other = rows.remote(slot);
        return rows.decodeAgeSeconds(slot, nowNanos) + (other == null ? 0 : other.ageSumSecondsAt(nowEpochMillis));
    }

    /** The pod's slot in the rows, or -1 when there are none or it is not one of their snapshot's pods. */
    private int slot(Pod pod) {
        return rows == null ? -1 : rows.slot(pod);
    }

    /** This view with outlier detection's verdicts (the session's detector at this decision's time). */
    public ClusterLoad ejecting(Predicate<Pod> ejectedPods) {
        this.ejected = ejectedPods;
        return this;
    }

    /** This view with the model's prefix demand (what its recent requests carried), read by predicted_ttft. */
    public ClusterLoad withPrefixDemand(PrefixDemand demand) {
        this.prefixDemand = demand;
        return this;
    }

    @Override
    public double prefixRequests(long[] blockHashes, int blocks) {
        return prefixDemand == null ? 0 : prefixDemand.requests(blockHashes, blocks, nowNanos);
    }

    @Override
    public boolean ejected(Pod pod) {
        return ejected != null && ejected.test(pod);
    }

    @Override
    public boolean mayEject() {
        return ejected != null;
    }

    /** The reads of whole sides this decision's stages made and share ({@link SideReads}). */
    public SideReads sideReads() {
        return sideReads;
    }

    @Override
    public long activeTokens(Pod pod) {
        int slot = slot(pod);
        return slot >= 0 ? rows.activeTokens(slot) : tokens.activeTokens(pod.id());
    }

    @Override
    public long kvTokens(Pod pod) {
        int slot = slot(pod);
        return slot >= 0 ? rows.kvTokens(slot) : tokens.kvTokens(pod.id());
    }

    @Override
    public long decodeTokens(Pod pod) {
        int slot = slot(pod);
        if (slot >= 0) {
            return decodeTokensAt(slot);
        }
        RemoteLoad.PodLoad other = remote.pod(pod.id());
        return tokens.decodeTokens(pod.id()) + (other == null ? 0 : other.decodeTokens());
    }

    @Override
    public double decodeAgeSeconds(Pod pod) {
        int slot = slot(pod);
        if (slot >= 0) {
            return decodeAgeSecondsAt(slot);
        }
        RemoteLoad.PodLoad other = remote.pod(pod.id());
        return tokens.decodeAgeSeconds(pod.id(), nowNanos) + (other == null ? 0 : other.ageSumSecondsAt(nowEpochMillis));
    }

    @Override
    public int inFlightPrefills(Pod pod) {
        int slot = slot(pod);
        return slot >= 0 ? rows.inFlightPrefills(slot) : ledger.inFlightPrefills(pod);
    }

    @Override
    public int runningRequests(Pod pod) {
        int slot = slot(pod);
        if (slot >= 0) {
            return runningRequestsAt(slot);
        }
        RemoteLoad.PodLoad other = remote.pod(pod.id());
        return ledger.runningRequests(pod) + (other == null ? 0 : (int) other.running());
    }

    @Override
    public boolean prefillState(Pod pod, double[] into, int at) {
        int slot = slot(pod);
        if (slot >= 0) {
            return prefillStateAt(slot, into, at);
        }
        if (prefillModels == null) {
            return false;
        }
        prefillModels.copyState(pod, nowNanos, into, at);
        return true;
    }

    @Override
    public double prefillModelError(Pod pod) {
        if (prefillModels == null) {
            return Double.NaN;
        }
        int slot = prefillSlot(pod);
        return slot >= 0 ? prefillRows.error(slot, pod) : prefillModels.error(pod.id());
    }

    @Override
    public int pendingDecodes(Pod pod) {
        int slot = slot(pod);
        return slot >= 0 ? rows.pendingDecodes(slot) : ledger.pendingDecodes(pod);
    }

    @Override
    public int runningIfObserved(Pod pod) {
        int slot = slot(pod);
        return slot < 0 ? LoadView.super.runningIfObserved(pod) : runningIfObservedAt(slot);
    }

    @Override
    public boolean hasRunningMetric(Pod pod) {
        int slot = slot(pod);
        if (slot >= 0) {
            return rows.hasCounters(slot) || rows.remote(slot) != null;
        }
        return ledger.hasRunningCounter(pod) || remote.pod(pod.id()) != null;
    }

    @Override
    public double drainRate(Pod pod) {
        return ledger.drain().rate(pod.id(), nowNanos);
    }

    @Override
    public PodMetrics metrics(Pod pod) {
        int slot = metricsRows == null ? -1 : slot(pod);
        if (slot >= 0) {
            return metricsAt(slot);
        }
        PodMetrics m = metrics.apply(pod);
        return m == null ? PodMetrics.ABSENT : m;
    }
}
