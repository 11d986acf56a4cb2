package io.pdgateway.core.ledger;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.cache.CachedPrefixes;
import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.model.ModelPods;
import java.util.List;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The token_load charge rules in their order: session growth first, then the prefix-unmatched part (hybrid_cache_load
 * only), then the whole prompt; request_cost always on top; the decode pod always gets the whole prompt.
 */
class TokenChargerTest {
    private static final long SECOND = 1_000_000_000L;
    private static final Pod PREFILL = pod("p").prefill("rs").build();
    private static final Pod DECODE = pod("d").decode("rs").build();
    private static final RouteDecision PAIR = RouteDecision.pair(PREFILL, DECODE, "final-score", "test", Map.of());

    private final TokenLedger ledger = new TokenLedger();
    private final SessionTable sessions = new SessionTable(100);
    private final CachedPrefixes caches = new CachedPrefixes();
    private final TokenCharger charger = new TokenCharger(ledger, sessions);

    private PrefixMatch match(long[] hashes) {
        return hashes == null ? PrefixMatch.NONE
                : caches.lookup(hashes, ModelPods.of("m", List.of(PREFILL, DECODE))).match();
    }

    private static RouteRequest request(String policy, long[] hashes, String session) {
        PdKnobs knobs = GatewaySettings.defaults().pd()
                .overriddenBy(new RoutingConfig(0, 0, false, null, null, Map.of("prefillScorePolicy", policy))).knobs();
        return new RouteRequest("m", "r", 1000, io.pdgateway.core.routing.Strategy.PD, null, knobs, hashes, session);
    }

    @Test
    void noSessionNoMatch_chargesRequestCostPlusWholePrompt() {
        charger.charge(request("token_load", null, null), PAIR, PrefixMatch.NONE, 1000, 0);
        // 3500 (AIBRIX_TOKEN_LOAD_REQUEST_COST) + 1000.
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4500);
        assertThat(ledger.decodeTokens(DECODE.id())).isEqualTo(1000);
    }

    @Test
    void growingSession_chargesOnlyTheGrowth() {
        charger.charge(request("token_load", null, "s1"), PAIR, PrefixMatch.NONE, 1000, 0);
        charger.charge(request("token_load", null, "s1"), PAIR, PrefixMatch.NONE, 1300, SECOND);
        // First 3500 + 1000, then 3500 + 300 (the growth), each request's whole prompt on the decode pod.
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4500 + 3800);
        assertThat(ledger.decodeTokens(DECODE.id())).isEqualTo(2300);
    }

    @Test
    void hybridCacheLoad_halfMatched_chargesTheUnmatchedHalf() {
        long[] hashes = CachedPrefixes.prompt(4, 1);
        caches.holding(PREFILL, hashes, 2);
        charger.charge(request("hybrid_cache_load", hashes, null), PAIR, match(hashes), 1000, 0);
        // 2 of 4 blocks held: 50 % match, new_tokens = 500.
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4000);
    }

    @Test
    void tokenLoad_ignoresThePrefixMatch() {
        long[] hashes = CachedPrefixes.prompt(4, 1);
        caches.holding(PREFILL, hashes, 4);
        charger.charge(request("token_load", hashes, null), PAIR, match(hashes), 1000, 0);
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4500);
    }
}
