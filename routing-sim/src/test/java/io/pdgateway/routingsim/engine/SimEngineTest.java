package io.pdgateway.routingsim.engine;

import static io.pdgateway.routingsim.engine.EngineHarness.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.sim.TimingProfile;
import org.junit.jupiter.api.Test;

/**
 * The pod model, one property at a time, with the Llama-3-8B profile (a = 20, b = 0.021, c = 4e-7, d = 7.2,
 * e = 0.012, f = 4.4e-5 ms): each expected time is worked out in its comment. Times are exact up to nanosecond
 * rounding of each step.
 */
class SimEngineTest {
    private static final TimingProfile P = TimingProfile.llama3_8b_h100();
    private static final double EPS = 1e-3;

    @Test
    void prefillPod_lonePrompt_firstTokenAfterAPlusBtPlusCt2() {
        EngineHarness h = new EngineHarness(EngineRole.PREFILL, P);
        EngineRequest r = h.request(4096, 1, true);
        h.submitAt(0, r);
        h.queue.run();
        // (a − d) outside the step, then one step of d + b·4096 + c·4096² = 20 + 86.016 + 6.711 = 112.727 ms.
        assertThat(h.firstMs(r)).isCloseTo(P.prefillMillis(4096, 0), within(EPS));
        assertThat(h.doneMs(r)).isEqualTo(h.firstMs(r));
    }

    @Test
    void promptLongerThanTheTokenBudget_isChunked_eachChunkStepAddsD() {
        EngineHarness h = new EngineHarness(EngineRole.PREFILL, P);
        EngineRequest r = h.request(20_000, 1, true);
        h.submitAt(0, r);
        h.queue.run();
        // Chunks of 8192, 8192, 3616: the chunks' quadratic terms sum to exactly c·t², each extra step adds d.
        assertThat(h.firstMs(r)).isCloseTo(P.prefillMillis(20_000, 0) + 2 * P.decodeStepFloorMillis(), within(EPS));
    }

    @Test
    void decodeRole_oneTokenPerStep_stepsSlowWithContext() {
        EngineHarness h = new EngineHarness(EngineRole.DECODE, P);
        EngineRequest r = h.request(1000, 10, false);
        h.submitAt(0, r);
        h.queue.run();
        // Step k (k = 0..9) holds context 1000 + k: d + e + f·(1000 + k).
        double expected = 0;
        for (int k = 0; k < 10; k++) {
            expected += P.decodeStepMillis(1, 1000 + k);
        }
        assertThat(h.firstMs(r)).isCloseTo(P.decodeStepMillis(1, 1000), within(EPS));
        assertThat(h.doneMs(r)).isCloseTo(expected, within(EPS));
    }

    @Test
    void twoDecodes_shareSteps_eachStepSlowerThanAlone() {
        EngineHarness h = new EngineHarness(EngineRole.DECODE, P);
        EngineRequest a = h.request(8000, 5, false);
        EngineRequest b = h.request(8000, 5, false);
        h.submitAt(0, a);
        h.submitAt(0, b);
        h.queue.run();
        // Both admitted to the first step: B = 2, ΣC = 2·(8000 + k).
        double expected = 0;
        for (int k = 0; k < 5; k++) {
            expected += P.decodeStepMillis(2, 2L * (8000 + k));
        }
        assertThat(h.doneMs(a)).isCloseTo(expected, within(EPS));
        assertThat(h.doneMs(b)).isCloseTo(expected, within(EPS));
    }

    @Test
    void kvCapacity_full_secondRequestWaitsForTheFirstToFinish() {
        // 2,000 tokens of KV: one request of 1,000 + 500 fits, two do not.
        EngineHarness h = new EngineHarness(EngineRole.DECODE, P.withKvCapacityTokens(2_000));
        EngineRequest a = h.request(1000, 500, false);
        EngineRequest b = h.request(1000, 500, false);
        h.submitAt(0, a);
        h.submitAt(0, b);
        h.queue.run();
        assertThat(h.first.get(b)).isEqualTo(h.done.get(a) + Math.round(P.decodeStepMillis(1, 1000) * 1e6));
    }

    @Test
    void maxNumSeqs_reached_nextRequestQueues() {
        EngineHarness h = new EngineHarness(EngineRole.DECODE, P.withMaxNumSeqs(1));
        EngineRequest a = h.request(100, 3, false);
        EngineRequest b = h.request(100, 3, false);
        h.submitAt(0, a);
        h.submitAt(0, b);
        h.queue.run();
        assertThat(h.first.get(b)).isGreaterThan(h.done.get(a));
    }

    @Test
    void samePromptTwice_secondHitsThePrefixCache_andPrefillsOnlyTheRest() {
        EngineHarness h = new EngineHarness(EngineRole.PREFILL, P);
        long[] hashes = EngineHarness.blocks(256, 1); // 4,096 tokens = 256 blocks of 16
        EngineRequest first = h.request(4096, 1, true, hashes);
        EngineRequest second = h.request(4096, 1, true, hashes);
        h.submitAt(0, first);
        h.submitAt(1_000 * MS, second);
        h.queue.run();
        // vLLM computes at least the last token: 4,095 cached, 1 new on top of them.
        assertThat(second.cachedTokens()).isEqualTo(4095);
        assertThat(h.firstMs(second) - 1_000).isCloseTo(P.prefillMillis(1, 4095), within(EPS));
        assertThat(h.engine.counters().prefixHitTokens()).isEqualTo(4095);
    }

    @Test
    void standardPod_prefillJoinsTheRunningDecodes_inOneMixedStep() {
        EngineHarness h = new EngineHarness(EngineRole.STANDARD, P);
        EngineRequest decoding = h.request(100, 1000, true);
        EngineRequest arriving = h.request(2000, 2, true);
        h.submitAt(0, decoding);
        h.submitAt(500 * MS, arriving);
        h.queue.run();
        // The newcomer's prefill step also carries the first request's decode token: d + e + f·C + b·n + 2c·n·(n/2).
        double stepWithChunk = P.decodeStepMillis(1, 100 + 1) + P.prefillChunkMillis(2000, 0);
        double alone = P.prefillMillis(2000, 0);
        assertThat(h.firstMs(arriving) - 500).isGreaterThan(alone).isLessThan(alone + stepWithChunk);
    }

    @Test
    void transferLink_isShared_transfersQueue() {
        EngineHarness h = new EngineHarness(EngineRole.PREFILL, P);
        long first = h.engine.bookTransfer(8192);
        long second = h.engine.bookTransfer(8192);
        // §7.2: 8k tokens = 1.07 GB over 25 GB/s plus 1 ms = 43.95 ms each, one after the other.
        assertThat(first / 1e6).isCloseTo(P.kvTransferMillis(8192), within(EPS));
        assertThat(second).isEqualTo(2 * first);
    }

    @Test
    void requestThatCanNeverFit_isRefused() {
        EngineHarness h = new EngineHarness(EngineRole.STANDARD, P.withKvCapacityTokens(1_000));
        EngineRequest r = h.request(900, 200, true);
        h.submitAt(0, r);
        h.queue.run();
        assertThat(h.refused.get(r)).contains("exceeds");
        assertThat(h.engine.idle()).isTrue();
    }

    @Test
    void metrics_comeFromTheLastScrape_stalenessUpToOneInterval() {
        EngineHarness h = new EngineHarness(EngineRole.DECODE, P.withMaxNumSeqs(1));
        EngineRequest a = h.request(1000, 200, false);
        EngineRequest b = h.request(1000, 200, false);
        h.submitAt(10 * MS, a);
        h.submitAt(10 * MS, b);
        PodMetrics[] seen = new PodMetrics[3];
        h.queue.schedule(20 * MS, now -> seen[0] = h.engine.metrics(now)); // last scrape at 0: idle
        h.queue.schedule(60 * MS, now -> seen[1] = h.engine.metrics(now)); // scrape at 50: b waiting
        h.queue.schedule(1_100 * MS, now -> seen[2] = h.engine.metrics(now));
        h.queue.run();
        assertThat(seen[0].waiting()).isZero();
        assertThat(seen[0].scrapedAtNanos()).isZero();
        assertThat(seen[1].waiting()).isEqualTo(1);
        assertThat(seen[1].scrapedAtNanos()).isEqualTo(50 * MS);
        assertThat(seen[1].kvCacheUsage()).isGreaterThan(0);
        // About one token per 7.3 ms step over the last second: ~137 tokens/s.
        assertThat(seen[2].generationThroughput()).isCloseTo(1000 / P.decodeStepMillis(1, 1100), within(5.0));
    }

    @Test
    void beforeTheFirstScrape_metricsAreAbsent() {
        EngineHarness h = new EngineHarness(EngineRole.DECODE, P);
        SimEngine late = new SimEngine(h.engine.pod(), EngineRole.DECODE, P, h.queue, 50 * MS, 30 * MS);
        assertThat(late.metrics(0).present()).isFalse();
        assertThat(late.metrics(30 * MS).present()).isTrue();
    }
}
