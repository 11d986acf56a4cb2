package io.pdgateway.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import static io.pdgateway.core.PodBuilder.pod;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token_load charge lifecycle of the spec, rule by rule. */
class TokenLedgerTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long TTL = 60 * SECOND;
    private final TokenLedger ledger = new TokenLedger();
    private final Pod p = pod("p").namespace("ns").build();
    private final Pod d = pod("d").namespace("ns").build();
    private final Pod p2 = pod("p2").namespace("ns").build();
    private final Pod d2 = pod("d2").namespace("ns").build();

    @Test
    void charge_activeAndKvOnPrefill_promptOnDecode() {
        ledger.charge(p, 4500, d, 1000, TTL, 0);
        assertThat(ledger.activeTokens("ns/p")).isEqualTo(4500);
        assertThat(ledger.kvTokens("ns/p")).isEqualTo(4500);
        assertThat(ledger.decodeTokens("ns/d")).isEqualTo(1000);
        assertThat(ledger.decodeAgeSeconds("ns/d", 3 * SECOND)).isEqualTo(3.0);
    }

    @Test
    void prefillReturns_activeReleased_kvStaysUntilComplete() {
        TokenLedger.Charge charge = ledger.charge(p, 4500, d, 1000, TTL, 0);
        charge.releaseActive(SECOND);
        assertThat(ledger.activeTokens("ns/p")).isZero();
        assertThat(ledger.kvTokens("ns/p")).isEqualTo(4500);
        charge.releaseAll(2 * SECOND);
        assertThat(ledger.outstandingTokens()).isZero();
    }

    @Test
    void releases_idempotent_neverNegative() {
        TokenLedger.Charge a = ledger.charge(p, 100, d, 10, TTL, 0);
        TokenLedger.Charge b = ledger.charge(p, 100, d, 10, TTL, 0);
        a.releaseAll(1);
        a.releaseAll(1);
        a.releaseActive(1);
        assertThat(ledger.activeTokens("ns/p")).isEqualTo(100);
        assertThat(ledger.decodeRequests("ns/d")).isEqualTo(1);
        b.releaseAll(1);
        b.releaseAll(1);
        assertThat(ledger.outstandingTokens()).isZero();
        assertThat(ledger.decodeAgeSeconds("ns/d", 5 * SECOND)).isZero();
    }

    @Test
    void janitor_forceReleasesPastTtl_withWarning_thenForgetsIdlePods() {
        ledger.charge(p, 100, d, 10, TTL, 0);
        TokenLedger.Charge young = ledger.charge(p2, 50, d2, 5, TTL, 50 * SECOND);
        List<String> warnings = new ArrayList<>();
        List<String> forgotten = ledger.sweep(61 * SECOND, warnings::add).forgottenPods();
        assertThat(warnings).hasSize(1).allSatisfy(w -> assertThat(w).contains("ns/p").contains("force-released"));
        assertThat(ledger.activeTokens("ns/p")).isZero();
        assertThat(ledger.activeTokens("ns/p2")).isEqualTo(50);
        assertThat(forgotten).as("released pods were touched just now").isEmpty();
        assertThat(ledger.sweep(122 * SECOND, warnings::add).forgottenPods()).containsExactlyInAnyOrder("ns/p", "ns/d");
        assertThat(ledger.podIds()).containsExactlyInAnyOrder("ns/p2", "ns/d2");
        young.releaseAll(130 * SECOND);
    }

    @Test
    void eachChargeKeepsItsOwnTtl() {
        ledger.charge(p, 100, d, 10, 3600 * SECOND, 0); // a profile with tokenLoadTTLSeconds=3600
        List<String> warnings = new ArrayList<>();
        ledger.sweep(61 * SECOND, warnings::add);
        assertThat(warnings).as("the environment's 60 s TTL does not apply to it").isEmpty();
        ledger.sweep(3601 * SECOND, warnings::add);
        assertThat(warnings).hasSize(1);
        assertThat(ledger.outstandingTokens()).isZero();
    }

    @Test
    void podDropped_chargeReleasesIntoTheVoid_recreatedPodStartsAtZero() {
        TokenLedger.Charge charge = ledger.charge(p, 100, d, 10, TTL, 0);
        assertThat(ledger.retainOnly(java.util.Map.of(d.id(), d.address()))).containsExactly(p.id());
        assertThat(ledger.activeTokens(p.id())).isZero();
        ledger.charge(p, 7, d2, 1, TTL, 0);
        charge.releaseAll(SECOND);
        assertThat(ledger.activeTokens(p.id())).as("the old release does not touch the new counters").isEqualTo(7);
        assertThat(ledger.decodeTokens(d.id())).isZero();
    }

    @Test
    void sessionsKeepTheirOwnTtl() {
        SessionTable sessions = new SessionTable(10);
        sessions.delta("m", "short", 10, 10 * SECOND, 0);
        sessions.delta("m", "long", 10, 3600 * SECOND, 0);
        sessions.expire(60 * SECOND);
        assertThat(sessions.size()).isEqualTo(1);
        assertThat(sessions.delta("m", "long", 20, 3600 * SECOND, 61 * SECOND)).isEqualTo(10);
    }

    @Test
    void sessions_deltaOnGrowth_boundedAndExpiring() {
        SessionTable sessions = new SessionTable(2);
        long ttl = 1800 * SECOND;
        assertThat(sessions.delta("m", "chat-1", 1000, ttl, 0)).as("first turn: no delta").isEqualTo(-1);
        assertThat(sessions.delta("m", "chat-1", 1300, ttl, SECOND)).isEqualTo(300);
        assertThat(sessions.delta("other-model", "chat-1", 1400, ttl, SECOND)).as("per model").isEqualTo(-1);
        assertThat(sessions.delta("m", "chat-1", 1300, ttl, 2 * SECOND)).as("not longer").isEqualTo(-1);
        assertThat(sessions.delta("m", "x".repeat(257), 10, ttl, 0)).as("key over 256 bytes").isEqualTo(-1);
        assertThat(sessions.delta("m", "chat-3", 100, ttl, 0)).isEqualTo(-1);
        assertThat(sessions.delta("m", "chat-3", 200, ttl, 0)).as("table full: chat-3 not remembered").isEqualTo(-1);
        assertThat(sessions.delta("m", "chat-1", 1500, 0, 3 * SECOND)).as("TTL 0 turns the rule off").isEqualTo(-1);
        assertThat(sessions.delta("m", "chat-1", 1600, ttl, 4000 * SECOND)).as("expired").isEqualTo(-1);
        sessions.expire(9000 * SECOND);
        assertThat(sessions.size()).isZero();
    }
}
