package io.pdgateway.core.session;

import io.pdgateway.core.cache.PrefixDemand;
import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.ledger.LedgerRows;
import io.pdgateway.core.model.MetricsRows;
import io.pdgateway.core.predict.PrefillRows;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.PrefillPolicy;
import java.util.SplittableRandom;

/**
 * One model's routing lane: the lock that makes a selection and its charges one step (spec, token_load: "charged in
 * the same critical section as the selection") and the random source of its tie-breaks. Pods belong to one model, so
 * selections for different models never wait on each other.
 */
final class ModelLane {
    final SplittableRandom random;
    /** The model's ledger entries by pod slot, read by its decisions; guarded by this lane's lock. */
    final LedgerRows rows = new LedgerRows();
    /** The model's scraped-metrics entries by pod slot, when the session's metrics are a store that keeps entries. */
    final MetricsRows metricsRows = new MetricsRows();
    /** The model's prefill-time queues by pod slot, read by predicted_ttft; guarded by this lane's lock. */
    final PrefillRows prefillRows = new PrefillRows();
    /** The working arrays of its decisions, reused from one to the next; guarded by this lane's lock. */
    final DecisionBuffers buffers = new DecisionBuffers();
    /** What the model's routed prompts carried (predicted_ttft's prefix demand); guarded by this lane's lock. */
    final PrefixDemand demand = new PrefixDemand();
    /**
     * Whether any request of the model has been routed by predicted_ttft, the one reader of {@link #demand}: until then
     * nothing is recorded (a table write per prompt block per decision, and the table's memory, for nobody); guarded
     * by this lane's lock.
     */
    private boolean demandRead;
    /** The prefix match its decisions' lookups refill, read only within the decision; guarded by this lane's lock. */
    final PrefixMatch prefixMatch = PrefixMatch.reusable();

    ModelLane(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A request of the model is being routed (under this lane's lock): a predicted_ttft one starts the demand count. */
    void admitting(Admission admission) {
        demandRead |= admission.strategy().isPd()
                && admission.knobs().prefillScorePolicy() == PrefillPolicy.PREDICTED_TTFT;
    }

    /** A routed prompt (under this lane's lock): counted in the demand once a request of the model reads it. */
    void recordDemand(long[] blockHashes, long nowNanos) {
        if (demandRead) {
            demand.record(blockHashes, nowNanos);
        }
    }

    /** The demand for the prompt's first {@code blocks} blocks now. */
    synchronized double demandNow(long[] blockHashes, int blocks, long nowNanos) {
        return demand.requests(blockHashes, blocks, nowNanos);
    }
}
