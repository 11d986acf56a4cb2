package io.pdgateway.routingsim.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import java.util.Map;
import io.pdgateway.core.predict.PrefillModels;
import io.pdgateway.core.predict.PrefillTimeModel;
import io.pdgateway.sim.TimingProfile;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The gateway's online prefill-time model converges on engine-sim's timing profile. A prefill pod computes legs first
 * come, first served, each taking the profile's prefill time; the gateway only sees when it sent each leg and when the
 * leg answered. Started from a prior off by a factor of two, after a few minutes of such traffic (idle and queued,
 * cached and not) its predictions are within 10 % of the profile for prompts of 256 to 16k tokens, its predicted wait
 * behind queued work is right, and the error it reports is under 10 %.
 */
class PrefillModelCalibrationTest {
    private static final PrefillTimeModel.Coefficients WRONG_PRIOR = new PrefillTimeModel.Coefficients(40, 0.042, 8e-7);
    private static final long MS = 1_000_000L;

    private record Leg(PrefillModels.Ticket ticket, long answersAt) {}

    @Test
    void fromAWrongPrior_convergesWithinTenPercent_throughTheQueue() {
        for (TimingProfile profile : new TimingProfile[] {TimingProfile.llama3_8b_h100(),
            TimingProfile.llama3_70b_tp4_h100()}) {
            Pod pod = new Pod("default", "p", "m", "10.0.0.1", 8000, 8000, "vllm", PodRole.PREFILL, "rs", null, 8998,
                    null, Map.of());
            PrefillModels models = new PrefillModels(p -> WRONG_PRIOR, p -> 10_000);
            SplittableRandom random = new SplittableRandom(5);
            Deque<Leg> inFlight = new ArrayDeque<>();
            long now = 0;
            long podFreeAt = 0;
            for (int leg = 0; leg < 3000; leg++) {
                // Arrivals about as fast as the pod computes: sometimes idle, sometimes a queue of several legs.
                now += (long) (random.nextDouble() * 400 * MS);
                while (!inFlight.isEmpty() && inFlight.peekFirst().answersAt() <= now) {
                    Leg done = inFlight.pollFirst();
                    models.answered(done.ticket(), done.answersAt());
                }
                int uncached = 64 + random.nextInt(12_000);
                int cached = random.nextInt(4) == 0 ? random.nextInt(8_000) : 0;
                PrefillModels.Ticket ticket = models.dispatched(pod, uncached, cached, now);
                long start = Math.max(now, podFreeAt);
                podFreeAt = start + (long) (profile.prefillMillis(uncached, cached) * MS);
                inFlight.addLast(new Leg(ticket, podFreeAt));
            }
            while (!inFlight.isEmpty()) {
                Leg done = inFlight.pollFirst();
                models.answered(done.ticket(), done.answersAt());
            }
            PrefillTimeModel.Coefficients fit = models.coefficients(pod.id());
            PrefillTimeModel model = new PrefillTimeModel(fit);
            for (int tokens : new int[] {256, 1024, 4096, 8192, 16_384}) {
                double expected = profile.prefillMillis(tokens, 0);
                assertThat(model.predictMillis(tokens, 0)).as("%s, %d tokens", profile.name(), tokens)
                        .isCloseTo(expected, within(0.10 * expected));
            }
            assertThat(models.error(pod.id())).as("the error it reports").isLessThan(0.10);
            // Two legs queued now: a third waits for both of them, then computes its own.
            long later = podFreeAt + 1000 * MS;
            models.dispatched(pod, 4000, 0, later);
            models.dispatched(pod, 2000, 0, later);
            double expected = profile.prefillMillis(4000, 0) + profile.prefillMillis(2000, 0) + profile.prefillMillis(1000, 0);
            assertThat(models.predictMillis(pod, 1000, 0, later)).isCloseTo(expected, within(0.10 * expected));
        }
    }
}
