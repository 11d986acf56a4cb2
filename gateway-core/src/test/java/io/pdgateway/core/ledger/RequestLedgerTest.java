package io.pdgateway.core.ledger;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Charges are keyed by namespace/name, released at most once, and never go below zero. */
class RequestLedgerTest {
    private final RequestLedger ledger = new RequestLedger();
    private final Pod prefill = pod("p").prefill("rs").build();
    private final Pod decode = pod("d").decode("rs").build();

    @Test
    void pdCharge_countsBothSides_releasesPrefillThenAll() {
        RequestLedger.Charge charge = ledger.charge(RouteDecision.pair(prefill, decode, "s", "t", Map.of()));
        assertThat(ledger.inFlightPrefills(prefill)).isEqualTo(1);
        assertThat(ledger.runningRequests(decode)).isEqualTo(1);
        charge.releasePrefill();
        assertThat(ledger.inFlightPrefills(prefill)).isZero();
        assertThat(ledger.runningRequests(decode)).isEqualTo(1);
        charge.releaseAll();
        assertThat(ledger.outstanding()).isZero();
    }

    @Test
    void repeatedReleases_idempotent_neverNegative() {
        RequestLedger.Charge first = ledger.charge(RouteDecision.pair(prefill, decode, "s", "t", Map.of()));
        RequestLedger.Charge second = ledger.charge(RouteDecision.pair(prefill, decode, "s", "t", Map.of()));
        first.releaseAll();
        first.releaseAll();
        first.releasePrefill();
        assertThat(ledger.runningRequests(decode)).isEqualTo(1);
        second.releaseAll();
        second.releaseAll();
        assertThat(ledger.outstanding()).isZero();
    }

    @Test
    void samePodNameInTwoNamespaces_separateCounters() {
        Pod a = pod("d").namespace("team-a").decode("rs").build();
        Pod b = pod("d").namespace("team-b").decode("rs").build();
        ledger.charge(RouteDecision.single(a, io.pdgateway.core.routing.Verdict.STANDARD_FALLBACK, io.pdgateway.core.routing.Strategy.PD, "s", "t"));
        assertThat(ledger.runningRequests(a)).isEqualTo(1);
        assertThat(ledger.runningRequests(b)).isZero();
    }

    @Test
    void pdCharge_pendingUntilPrefillReturns_completionsFeedDrainRate() {
        RequestLedger.Charge charge = ledger.charge(RouteDecision.pair(prefill, decode, "s", "t", Map.of()));
        assertThat(ledger.pendingDecodes(decode)).isEqualTo(1);
        assertThat(ledger.hasRunningCounter(decode)).isTrue();
        charge.releasePrefill();
        assertThat(ledger.pendingDecodes(decode)).isZero();
        assertThat(ledger.runningRequests(decode)).isEqualTo(1);
        charge.releaseAll();
        assertThat(ledger.hasRunningCounter(decode)).as("the counter stays, at zero").isTrue();
        ledger.drain().tick(0);
        assertThat(ledger.drain().rate(decode.id(), 20_000_000_000L)).isZero();
    }

    @Test
    void podLeavesDiscovery_nothingLeft_recreatedAtAnotherAddress_freshCounters() {
        RequestLedger.Charge charge = ledger.charge(RouteDecision.pair(prefill, decode, "s", "t", Map.of()));
        ledger.retainOnly(Map.of(prefill.id(), prefill.address()));
        assertThat(ledger.podIds()).containsExactly(prefill.id());
        assertThat(ledger.hasRunningCounter(decode)).isFalse();
        charge.releaseAll(); // lands on the dropped counters
        assertThat(ledger.outstanding()).isZero();
        Pod moved = new Pod(prefill.namespace(), prefill.name(), prefill.model(), "10.9.9.9", prefill.port(),
                prefill.metricPort(), prefill.engine(), prefill.role(), prefill.rolesetName(), null, 8998, null, Map.of());
        ledger.charge(RouteDecision.pair(prefill, decode, "s", "t", Map.of()));
        ledger.retainOnly(Map.of(moved.id(), moved.address(), decode.id(), decode.address()));
        assertThat(ledger.inFlightPrefills(moved)).as("same name, new address: a new pod").isZero();
    }
}
