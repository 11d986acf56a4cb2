package io.pdgateway.core.routing;

import io.pdgateway.core.routing.score.ConductorDecodeScorer;
import io.pdgateway.core.routing.score.LoadBalancingDecodeScorer;
import io.pdgateway.core.routing.score.RunningRequestsDecodeScorer;
import io.pdgateway.core.routing.score.TokenLoadDecodeScorer;
import io.pdgateway.core.spec.SpecNamed;
import io.pdgateway.core.spec.SpecPolicies;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The spec's step-4 policies (decodeScorePolicy, AIBRIX_DECODE_SCORE_POLICY), each with the cascade rules it changes.
 * The spec's names are the wire and config spelling; nothing outside this type compares them.
 */
public enum DecodePolicy implements SpecNamed {
    /** Spec default. */
    LOAD_BALANCING(SpecPolicies.LOAD_BALANCING, new LoadBalancingDecodeScorer(), true),
    LEAST_REQUEST(SpecPolicies.LEAST_REQUEST, new RunningRequestsDecodeScorer(), true),
    CONDUCTOR(SpecPolicies.CONDUCTOR, new ConductorDecodeScorer(), true),
    /**
     * Spec, token_load decode side: its ledger replaces what the step-2 fast path picks by, and pods without metrics
     * are scored from the ledger like any other rather than given the cold-start score.
     */
    TOKEN_LOAD(SpecPolicies.TOKEN_LOAD, new TokenLoadDecodeScorer(), false);

    private final String specName;
    private final Scorer scorer;
    private final boolean scrapedLoad;

    DecodePolicy(String specName, Scorer scorer, boolean scrapedLoad) {
        this.specName = specName;
        this.scorer = scorer;
        this.scrapedLoad = scrapedLoad;
    }

    /** The policy a user names, case and surrounding blanks ignored; empty when no policy has that name. */
    public static Optional<DecodePolicy> named(String name) {
        return name == null ? Optional.empty() : SpecNamed.find(values(), name.trim().toLowerCase(Locale.ROOT));
    }

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

    /** Step 2's decode fast path runs: it picks by the request counts, throughput and drain rates this policy reads. */
    public boolean takesDecodeFastPath() {
        return scrapedLoad;
    }

    /** Step 4's cold-start score applies to pods without a running count (spec: not under token_load). */
    public boolean coldStartsNewPods() {
        return scrapedLoad;
    }

    @Override
    public String toString() {
        return specName;
    }
}
