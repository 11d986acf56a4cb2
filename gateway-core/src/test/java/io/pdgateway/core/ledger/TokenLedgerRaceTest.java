package io.pdgateway.core.ledger;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The janitor's sweep against concurrent charges and releases (issue 17 audit): with a TTL of zero every charge is
 * already "expired", so the sweep tries to force-release exactly the charges the request threads are releasing at the
 * same moment. Each charge must be released exactly once (by its request or by the janitor, never both), no charge
 * may be lost to a pod the janitor forgot, and the ledger ends at zero.
 */
class TokenLedgerRaceTest {
    private static final int THREADS = 4;
    private static final int CHARGES_PER_THREAD = 20_000;

    @Test
    void sweepRacingReleases_eachChargeReleasedOnce_ledgerEndsAtZero() throws Exception {
        TokenLedger ledger = new TokenLedger();
        List<Pod> prefills = List.of(pod("p0").prefill("rs").build(), pod("p1").prefill("rs").build());
        List<Pod> decodes = List.of(pod("d0").decode("rs").build(), pod("d1").decode("rs").build());
        AtomicInteger releasedByRequests = new AtomicInteger();
        AtomicInteger forcedBySweep = new AtomicInteger();
        AtomicBoolean charging = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        CountDownLatch go = new CountDownLatch(1);
        // Far past every charge's TTL and the idle limit: the janitor may release and forget at every pass.
        long late = TokenLedger.IDLE_FORGET_NANOS * 10;
        Future<?> janitor = pool.submit(() -> {
            go.await();
            while (charging.get()) {
                forcedBySweep.addAndGet(ledger.sweep(late, warning -> { }).forcedReleases());
            }
            return null;
        });
        List<Future<?>> requests = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            requests.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < CHARGES_PER_THREAD; i++) {
                    TokenLedger.Charge charge = ledger.charge(prefills.get((thread + i) % 2), 100 + i % 7,
                            decodes.get(i % 2), 50 + i % 5, 0, i);
                    if (i % 3 == 0) {
                        charge.releaseActive(i);
                    }
                    if (charge.releaseAll(i)) {
                        releasedByRequests.incrementAndGet();
                    }
                    if (charge.releaseAll(i)) { // a second release is always a no-op
                        releasedByRequests.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> request : requests) {
            request.get(60, TimeUnit.SECONDS);
        }
        charging.set(false);
        janitor.get(10, TimeUnit.SECONDS);
        pool.shutdown();

        assertThat(releasedByRequests.get() + forcedBySweep.get()).as("releases, each charge once")
                .isEqualTo(THREADS * CHARGES_PER_THREAD);
        assertThat(ledger.outstandingTokens()).isZero();
        for (Pod pod : List.of(prefills.get(0), prefills.get(1), decodes.get(0), decodes.get(1))) {
            assertThat(ledger.activeTokens(pod.id()) + ledger.kvTokens(pod.id()) + ledger.decodeTokens(pod.id())
                    + ledger.decodeRequests(pod.id())).as(pod.name()).isZero();
            assertThat(ledger.decodeAgeSeconds(pod.id(), 0)).as(pod.name() + " age sum").isZero();
        }
    }
}
