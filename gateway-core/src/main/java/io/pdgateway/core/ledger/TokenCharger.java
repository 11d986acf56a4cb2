package io.pdgateway.core.ledger;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;

/**
 * The spec's token_load charge of one PD decision: request_cost + new_tokens to the prefill pod, the whole prompt to
 * the decode pod. new_tokens is the first rule that applies: the session's growth since its last prompt, the
 * prefix-unmatched part of the prompt (policies that charge it: hybrid_cache_load), or the whole prompt. Time is
 * passed in; call it in the same critical section as the decision, with the prefix match the decision was made on.
 */
public final class TokenCharger {
    private final TokenLedger tokens;
    private final SessionTable sessions;

    public TokenCharger(TokenLedger tokens, SessionTable sessions) {
        this.tokens = tokens;
        this.sessions = sessions;
    }

    /**
     * @param promptTokens the spec's estimate of prompt_tokens (request body bytes / 4)
     * @param match how much of the prompt each pod holds, as the decision saw it
     */
    public TokenLedger.Charge charge(RouteRequest request, RouteDecision decision, PrefixMatch match, long promptTokens,
            long nowNanos) {
        PdKnobs knobs = request.knobs();
        long newTokens = sessions.delta(request.model(), request.sessionKey(), promptTokens,
                (long) (knobs.tokenLoadSessionTtlSeconds() * 1e9), nowNanos);
        if (newTokens < 0 && knobs.prefillScorePolicy().chargesUnmatchedPrefix()) {
            int pct = match.percent(decision.prefill());
            newTokens = Math.round(promptTokens * (1 - (pct < knobs.minMatchPct() ? 0 : pct) / 100.0));
        }
        if (newTokens < 0) {
            newTokens = promptTokens;
        }
        return tokens.charge(decision.prefill(), Math.round(knobs.tokenLoadRequestCost()) + newTokens,
                decision.target(), promptTokens, (long) (knobs.tokenLoadTtlSeconds() * 1e9), nowNanos);
    }
}
