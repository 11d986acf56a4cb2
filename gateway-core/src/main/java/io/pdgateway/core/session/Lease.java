package io.pdgateway.core.session;

import io.pdgateway.core.cache.CacheHold;
import io.pdgateway.core.cache.CacheModel;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.predict.PrefillModels;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one routed request holds in the session's ledgers: its request counts, on the PD path its token charges, and
 * the prompt blocks it references on the pod that computes them.
 * The edge releases through this one handle, so no ledger can be forgotten on some path; every release is idempotent
 * and safe from any thread.
 */
public final class Lease {
    static final Lease NONE = new Lease(null, null, null, null, 0, null, null, SessionClock.SYSTEM);

    private final RequestLedger.Charge requests;
    private final TokenLedger.Charge tokens;
    private final CacheModel cache;
    private final CacheHold hold;
    /** The blocks of the prompt the computing pod held when the request was routed. */
    private final int cachedBlocks;
    private final PrefillModels prefillModels;
    private final PrefillModels.Ticket prefillLeg;
    private final SessionClock clock;
    private final AtomicBoolean prefillSettled = new AtomicBoolean();

    Lease(RequestLedger.Charge requests, TokenLedger.Charge tokens, CacheModel cache, CacheHold hold, int cachedBlocks,
            PrefillModels prefillModels, PrefillModels.Ticket prefillLeg, SessionClock clock) {
        this.requests = requests;
        this.tokens = tokens;
        this.cache = cache;
        this.hold = hold;
        this.cachedBlocks = cachedBlocks;
        this.prefillModels = prefillModels;
        this.prefillLeg = prefillLeg;
        this.clock = clock;
        prefillSettled.set(prefillLeg == null);
    }

    /**
     * The prefill call answered successfully: its compute is released, and its measured time trains the pod's
     * prefill-time model (once, however often this is called).
     */
    public void prefillAnswered() {
        if (prefillSettled.compareAndSet(false, true)) {
            prefillModels.answered(prefillLeg, clock.nanoTime());
        }
        computeAccepted();
        prefillDone();
    }

    private void prefillDone() {
        if (requests != null) {
            requests.releasePrefill();
        }
        if (tokens != null) {
            tokens.releaseActive(clock.nanoTime());
        }
    }

    /**
     * The pod that computes the prompt took it: it answered the prefill leg, or as the single pod began its answer. The
     * prompt's blocks it did not hold now push its least recent ones out of its cache view (see
     * {@link CacheModel#accepted}); until then, or the release, they push nothing out. Idempotent.
     */
    public void computeAccepted() {
        if (hold != null) {
            cache.accepted(hold);
        }
    }

    /**
     * The single pod's answer began with this status, seen as a proxy sees it (the Envoy picker): a success means the
     * pod took the prompt, a client error that it refused it before computing any (as engines check a request). A
     * server error says neither: the pod may have computed, so the release decides.
     */
    public void singlePodAnswered(int status) {
        if (status >= 200 && status < 300) {
            computeAccepted();
        } else if (status >= 400 && status < 500) {
            computeRefused();
        }
    }

    /**
     * The pod that computes the prompt (the prefill pod, or the single pod) answered with an error before any of the
     * answer, so it stored none of the prompt: the prompt's blocks it did not already hold leave its cache view. Not
     * for a timeout or a broken connection, after which the pod may have computed it. The rest of the lease is
     * released as usual, when the request ends.
     */
    public void computeRefused() {
        if (hold != null) {
            cache.refused(hold, cachedBlocks);
        }
    }

    /** The request ended, however it ended. */
    public void release() {
        if (prefillSettled.compareAndSet(false, true)) {
            prefillModels.abandoned(prefillLeg, clock.nanoTime());
        }
        if (requests != null) {
            requests.releaseAll();
        }
        if (tokens != null) {
            tokens.releaseAll(clock.nanoTime());
        }
        if (hold != null) {
            cache.release(hold);
        }
    }
}
