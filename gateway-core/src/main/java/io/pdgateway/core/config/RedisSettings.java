package io.pdgateway.core.config;

/**
 * Sharing load between gateway replicas through Redis (optional).
 *
 * @param host REDIS_HOST, or null when Redis is not configured
 * @param sharedLedger AIBRIX_TOKEN_LOAD_SHARED_LEDGER: whether the decode token ledger is shared too
 */
public record RedisSettings(String host, int port, String password, boolean sharedLedger) {

    public static RedisSettings read(KnobSource env) {
        return new RedisSettings(env.get(Knobs.REDIS_HOST), env.get(Knobs.REDIS_PORT).intValue(),
                env.get(Knobs.REDIS_PASSWORD), env.get(Knobs.TOKEN_LOAD_SHARED_LEDGER));
    }

    public boolean configured() {
        return host != null;
    }
}
