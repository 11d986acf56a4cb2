package io.pdgateway.core.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PrefillModelsTest {
    private static final long MS = 1_000_000L;
    private static final PrefillTimeModel.Coefficients PRIOR = PrefillTimeModel.Coefficients.LLAMA3_8B_H100;
    private static final Pod POD = new Pod("default", "p", "m", "10.0.0.1", 8000, 8000, "vllm", PodRole.PREFILL, "rs",
            null, 8998, null, Map.of());

    private final PrefillModels models = new PrefillModels(p -> PRIOR, p -> 10_000);

    /** Sends one 2,000-token leg at {@code at} that answers after {@code millis}. */
    private void leg(long at, double millis) {
        PrefillModels.Ticket ticket = models.dispatched(POD, 2000, 0, at);
        models.answered(ticket, at + (long) (millis * MS));
    }

    @Test
    void aPodInUse_keepsWhatItLearned() {
        double prior = models.predictMillis(POD, 2000, 0, 0);
        for (int i = 0; i < 200; i++) {
            leg(i * 1000 * MS, 3 * prior); // a leg a second, each three times the default
        }
        long now = 200_000 * MS;
        assertThat(models.predictMillis(POD, 2000, 0, now)).isCloseTo(3 * prior, within(0.05 * 3 * prior));
    }

    @Test
    void aCopiedState_predictsAsThePodsModel_withLegsInFlightAndWhileFading() {
        for (int i = 0; i < 50; i++) {
            leg(i * 100 * MS, 40 + i % 7); // teach it something other than the default
        }
        models.dispatched(POD, 3000, 500, 6_000 * MS); // two legs in flight, the head started at 6 s
        models.dispatched(POD, 800, 0, 6_010 * MS);
        double[] state = new double[3 + PrefillState.WIDTH];
        for (long now : new long[] {6_020 * MS, 30_000 * MS, 90_000 * MS}) { // queued; then the head is overdue, fading
            double answer = models.predictMillis(POD, 1200, 4000, now);
            double compute = models.computeMillis(POD, 1200, 4000, now);
            models.copyState(POD, now, state, 3);
            assertThat(PrefillState.answerMillis(state, 3, 1200, 4000)).as("at %d ms", now / MS).isEqualTo(answer);
            assertThat(PrefillState.computeMillis(state, 3, 1200, 4000)).as("at %d ms", now / MS).isEqualTo(compute);
            if (now == 6_020 * MS) {
                assertThat(answer).as("the queue ahead counts").isGreaterThan(compute);
            }
        }
    }

    @Test
    void anIdlePod_fadesBackToTheDefault_halvingEachPeriod() {
        double prior = models.predictMillis(POD, 2000, 0, 0);
        leg(0, 500); // one slow answer: a cold start
        long answered = 500 * MS;
        double learned = models.predictMillis(POD, 2000, 0, answered);
        assertThat(learned).as("one leg moves the fit").isGreaterThan(2 * prior);

        assertThat(models.predictMillis(POD, 2000, 0, answered + 9_000 * MS)).as("within the fade period")
                .isCloseTo(learned, within(1e-9));
        double oneHalfLife = models.predictMillis(POD, 2000, 0, answered + 20_000 * MS);
        assertThat(oneHalfLife - prior).isCloseTo((learned - prior) / 2, within(0.01 * learned));
        double muchLater = models.predictMillis(POD, 2000, 0, answered + 120_000 * MS);
        assertThat(muchLater).isCloseTo(prior, within(0.01 * prior));
    }

    @Test
    void readsFadeAnIdlePodInSteps_eachApplyingExactlyTheFadingSinceTheLast() {
        double prior = models.predictMillis(POD, 2000, 0, 0);
        leg(0, 500);
        long answered = 500 * MS;
        double learned = models.predictMillis(POD, 2000, 0, answered);
        double at15s = models.predictMillis(POD, 2000, 0, answered + 15_000 * MS);
        assertThat(at15s - prior).as("half a half-life faded").isCloseTo((learned - prior) * Math.pow(0.5, 0.5),
                within(1e-9 * learned));
        // A read within a step (a thirty-second of the 10 s period) of the last fade reads the model as it was.
        assertThat(models.predictMillis(POD, 2000, 0, answered + 15_300 * MS)).isEqualTo(at15s);
        // The next step's fade is exactly what one fade from the period's end would give.
        assertThat(models.predictMillis(POD, 2000, 0, answered + 25_000 * MS) - prior)
                .isCloseTo((learned - prior) * Math.pow(0.5, 1.5), within(1e-9 * learned));
    }

    @Test
    void afterFading_newLegsTeachAsFastAsAtTheStart() {
        PrefillModels fresh = new PrefillModels(p -> PRIOR, p -> 10_000);
        PrefillModels.Ticket first = fresh.dispatched(POD, 2000, 0, 0);
        fresh.answered(first, 5 * MS);
        double freshAfterOne = fresh.predictMillis(POD, 2000, 0, 5 * MS);

        leg(0, 500);
        long later = 600_000 * MS; // sixty periods: nothing of the slow leg is left
        PrefillModels.Ticket next = models.dispatched(POD, 2000, 0, later);
        models.answered(next, later + 5 * MS);
        assertThat(models.predictMillis(POD, 2000, 0, later + 5 * MS)).isCloseTo(freshAfterOne, within(0.01 * freshAfterOne));
    }

    @Test
    void fadingByRThenS_isFadingByTheirProduct() {
        PrefillTimeModel twice = new PrefillTimeModel(PRIOR);
        PrefillTimeModel once = new PrefillTimeModel(PRIOR);
        for (PrefillTimeModel m : new PrefillTimeModel[] {twice, once}) {
            m.observe(3000, 0, 900);
            m.observe(500, 1000, 200);
        }
        twice.fade(0.5);
        twice.fade(0.3);
        once.fade(0.15);
        assertThat(twice.predictMillis(4000, 0)).isCloseTo(once.predictMillis(4000, 0), within(1e-9));
        twice.observe(1000, 0, 50);
        once.observe(1000, 0, 50);
        assertThat(twice.predictMillis(4000, 0)).isCloseTo(once.predictMillis(4000, 0), within(1e-9));
    }

    /**
     * A decision copies a queue without its monitor while answers and dispatches change it on other threads: every copy
     * must be a state the queue was in, never half of one write and half of the next (legs of one, tokens of another).
     */
    @Test
    void aCopyDuringWrites_isAlwaysAWholeState() throws Exception {
        models.copyState(POD, 0, new double[PrefillState.WIDTH], 0); // the pod's queue exists before the writer starts
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            PrefillModels.Ticket[] held = new PrefillModels.Ticket[4];
            for (int i = 0; i < 100_000_000 && !done.get(); i++) {
                int at = i % held.length;
                if (held[at] != null) {
                    models.abandoned(held[at], i);
                }
                held[at] = models.dispatched(POD, 1000, 0, i);
            }
        });
        double[] state = new double[PrefillState.WIDTH];
        int torn = 0;
        int copies = 0;
        try {
            for (; copies < 2_000_000; copies++) {
                models.copyState(POD, 0, state, 0);
                double legs = state[PrefillState.LEGS];
                if (state[PrefillState.TOKENS] != legs * 1000
                        || state[PrefillState.ATTENTION] != legs * PrefillTimeModel.attention(1000, 0)) {
                    torn++;
                }
            }
        } finally {
            done.set(true);
        }
        writer.get(30, TimeUnit.SECONDS);
        assertThat(copies).isPositive();
        assertThat(torn).as("copies mixing two writes, of %d", copies).isZero();
    }
}
