package io.pdgateway.core.ledger;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.prefix.PrefixIndex;
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
    private final PrefixIndex index = new PrefixIndex(1000, Long.MAX_VALUE);
    private final TokenCharger charger = new TokenCharger(ledger, sessions, index);

    private static RouteRequest request(String policy, long[] hashes, String session) {
        PdKnobs knobs = GatewaySettings.defaults().pd()
                .overriddenBy(new RoutingConfig(0, 0, false, null, null, Map.of("prefillScorePolicy", policy))).knobs();
        return new RouteRequest("m", "r", 1000, io.pdgateway.core.routing.Strategy.PD, null, knobs, hashes, session);
    }

    @Test
    void noSessionNoMatch_chargesRequestCostPlusWholePrompt() {
        charger.charge(request("token_load", null, null), PAIR, 1000, 0);
        // 3500 (AIBRIX_TOKEN_LOAD_REQUEST_COST) + 1000.
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4500);
        assertThat(ledger.decodeTokens(DECODE.id())).isEqualTo(1000);
    }

    @Test
    void growingSession_chargesOnlyTheGrowth() {
        charger.charge(request("token_load", null, "s1"), PAIR, 1000, 0);
        charger.charge(request("token_load", null, "s1"), PAIR, 1300, SECOND);
        // First 3500 + 1000, then 3500 + 300 (the growth), each request's whole prompt on the decode pod.
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4500 + 3800);
        assertThat(ledger.decodeTokens(DECODE.id())).isEqualTo(2300);
    }

    @Test
    void hybridCacheLoad_halfMatched_chargesTheUnmatchedHalf() {
        long[] hashes = {1, 2, 3, 4};
        index.add(new long[] {1, 2}, PREFILL.id(), 0);
        charger.charge(request("hybrid_cache_load", hashes, null), PAIR, 1000, 0);
        // 2 of 4 blocks held: 50 % match, new_tokens = 500.
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4000);
    }

    @Test
    void tokenLoad_ignoresThePrefixMatch() {
        long[] hashes = {1, 2, 3, 4};
        index.add(hashes, PREFILL.id(), 0);
        charger.charge(request("token_load", hashes, null), PAIR, 1000, 0);
        assertThat(ledger.activeTokens(PREFILL.id())).isEqualTo(4500);
    }
}
