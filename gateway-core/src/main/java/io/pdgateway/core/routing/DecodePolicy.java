package io.pdgateway.core.routing;

import io.pdgateway.core.routing.score.ConductorDecodeScorer;
import io.pdgateway.core.routing.score.LoadBalancingDecodeScorer;
import io.pdgateway.core.routing.score.RunningRequestsDecodeScorer;
import io.pdgateway.core.routing.score.TokenLoadDecodeScorer;
import io.pdgateway.core.spec.SpecPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The spec's step-4 policies (decodeScorePolicy, AIBRIX_DECODE_SCORE_POLICY), each with the cascade rules it changes.
 * The spec's names are the wire and config spelling; nothing outside this type compares them.
 */
public enum DecodePolicy {
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
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (DecodePolicy policy : values()) {
            if (policy.specName.equals(wanted)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }

    public static List<String> specNames() {
        List<String> names = new ArrayList<>();
        for (DecodePolicy policy : values()) {
            names.add(policy.specName);
        }
        return names;
    }

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
