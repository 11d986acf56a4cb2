package io.pdgateway.core.ledger;

/**
 * Everything one routed request holds: its request counts and, on the PD path, its token charges. The exchange
 * releases through this one handle, so no ledger can be forgotten on some path.
 */
public final class Charges {
    private final RequestLedger.Charge requests;
    private final TokenLedger.Charge tokens;
    private final java.util.function.LongSupplier nanoClock;

    public Charges(RequestLedger.Charge requests, TokenLedger.Charge tokens, java.util.function.LongSupplier nanoClock) {
        this.requests = requests;
        this.tokens = tokens;
        this.nanoClock = nanoClock;
    }

    /** The prefill call returned (or failed: then {@link #releaseAll} follows). */
    public void releasePrefill() {
        requests.releasePrefill();
        if (tokens != null) {
            tokens.releaseActive(nanoClock.getAsLong());
        }
    }

    /** The request ended, however it ended. */
    public void releaseAll() {
        requests.releaseAll();
        if (tokens != null) {
            tokens.releaseAll(nanoClock.getAsLong());
        }
    }
}
