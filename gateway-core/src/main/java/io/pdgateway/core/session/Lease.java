package io.pdgateway.core.session;

import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;

/**
 * What one routed request holds in the session's ledgers: its request counts and, on the PD path, its token charges.
 * The edge releases through this one handle, so no ledger can be forgotten on some path; every release is idempotent
 * and safe from any thread.
 */
public final class Lease {
    static final Lease NONE = new Lease(null, null, SessionClock.SYSTEM);

    private final RequestLedger.Charge requests;
    private final TokenLedger.Charge tokens;
    private final SessionClock clock;

    Lease(RequestLedger.Charge requests, TokenLedger.Charge tokens, SessionClock clock) {
        this.requests = requests;
        this.tokens = tokens;
        this.clock = clock;
    }

    /** The prefill call returned (or failed: then {@link #release} follows). */
    public void prefillDone() {
        if (requests != null) {
            requests.releasePrefill();
        }
        if (tokens != null) {
            tokens.releaseActive(clock.nanoTime());
        }
    }

    /** The request ended, however it ended. */
    public void release() {
        if (requests != null) {
            requests.releaseAll();
        }
        if (tokens != null) {
            tokens.releaseAll(clock.nanoTime());
        }
    }
}
