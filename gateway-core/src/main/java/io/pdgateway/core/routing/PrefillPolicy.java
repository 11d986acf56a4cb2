package io.pdgateway.core.routing;

import io.pdgateway.core.routing.score.ConductorPrefillScorer;
import io.pdgateway.core.routing.score.HybridCacheLoadScorer;
import io.pdgateway.core.routing.score.InFlightPrefillScorer;
import io.pdgateway.core.routing.score.PredictedTtftScorer;
import io.pdgateway.core.routing.score.PrefixCacheScorer;
import io.pdgateway.core.routing.score.TokenLoadPrefillScorer;
import io.pdgateway.core.spec.SpecNamed;
import io.pdgateway.core.spec.SpecPolicies;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The spec's step-3 policies (prefillScorePolicy, AIBRIX_PREFILL_SCORE_POLICY), each with what it needs from the
 * request and how its token_load charge is computed. The spec's names are the wire and config spelling; nothing
 * outside this type compares them.
 */
public enum PrefillPolicy implements SpecNamed {
    /** Spec default: (100 − match%) × 0.1 + reqs / max_reqs. */
    PREFIX_CACHE(SpecPolicies.PREFIX_CACHE, new PrefixCacheScorer(), true, false, false),
    LEAST_REQUEST(SpecPolicies.LEAST_REQUEST, new InFlightPrefillScorer(), false, false, false),
    /** Estimated TTFT; reads the prefix match and the prompt's real token count. */
    CONDUCTOR(SpecPolicies.CONDUCTOR, new ConductorPrefillScorer(), true, true, false),
    TOKEN_LOAD(SpecPolicies.TOKEN_LOAD, new TokenLoadPrefillScorer(), false, false, false),
    /** Spec: the charge's new_tokens is the prefix-unmatched part of the prompt. */
    HYBRID_CACHE_LOAD(SpecPolicies.HYBRID_CACHE_LOAD, new HybridCacheLoadScorer(), true, false, true),
    /**
     * pd-gateway's own: the pair with the earliest predicted first token (fitted prefill time of the uncached part with
     * the work queued ahead, plus the KV transfer) whose decode pod is under its KV and TPOT limits.
     */
    PREDICTED_TTFT(SpecPolicies.PREDICTED_TTFT, new PredictedTtftScorer(), true, true, true);

    private final String specName;
    private final Scorer scorer;
    private final boolean readsPrefixCache;
    private final boolean needsTokenCount;
    private final boolean chargesUnmatchedPrefix;

    PrefillPolicy(String specName, Scorer scorer, boolean readsPrefixCache, boolean needsTokenCount,
            boolean chargesUnmatchedPrefix) {
        this.specName = specName;
        this.scorer = scorer;
        this.readsPrefixCache = readsPrefixCache;
        this.needsTokenCount = needsTokenCount;
        this.chargesUnmatchedPrefix = chargesUnmatchedPrefix;
    }

    /** The policy a user names, case and surrounding blanks ignored; empty when no policy has that name. */
    public static Optional<PrefillPolicy> named(String name) {
        return name == null ? Optional.empty() : SpecNamed.find(values(), name.trim().toLowerCase(Locale.ROOT));
    }

    /** Every policy's spec name, in declaration order (for messages and help texts). */
    public static List<String> specNames() {
        return SpecNamed.names(values());
    }

    @Override
    public String specName() {
        return specName;
    }

    public Scorer scorer() {
        return scorer;
    }

    /** The scorer looks the prompt up in the prefix cache view, so the prompt's block hashes must be computed. */
    public boolean readsPrefixCache() {
        return readsPrefixCache;
    }

    /** The scorer reads the prompt's token count (not the four-bytes-per-token estimate). */
    public boolean needsTokenCount() {
        return needsTokenCount;
    }

    /** Spec, token_load "Prefix match" rule: the prefill charge is the prompt × (1 − match%), not the whole prompt. */
    public boolean chargesUnmatchedPrefix() {
        return chargesUnmatchedPrefix;
    }

    /** Step 5 picks the earliest predicted first token instead of the spec's normalised final score. */
    public boolean picksByPredictedTtft() {
        return this == PREDICTED_TTFT;
    }

    @Override
    public String toString() {
        return specName;
    }
}
