package io.pdgateway.core.outlier;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.outlier.OutlierDetector.Transition;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Envoy-style ejection: N failures in a row eject, doubling up to the maximum; a success brings the pod back. */
class OutlierDetectorTest {
    private static final long S = 1_000_000_000L;
    private final OutlierDetector detector = new OutlierDetector(new OutlierDetector.Settings(3, 10 * S, 25 * S));
    private final Pod pod = pod("p").build();

    @Test
    void threeFailuresInARow_ejectForTheBaseTime_thenBackOnProbation() {
        assertThat(detector.failure(pod, 0)).isEqualTo(Transition.NONE);
        assertThat(detector.failure(pod, 1)).isEqualTo(Transition.NONE);
        assertThat(detector.ejected(pod, 1)).isFalse();
        assertThat(detector.failure(pod, 2)).isEqualTo(Transition.EJECTED);
        assertThat(detector.ejected(pod, 2)).isTrue();
        assertThat(detector.ejectedCount(2)).isEqualTo(1);
        assertThat(detector.ejected(pod, 2 + 10 * S - 1)).isTrue();
        assertThat(detector.ejected(pod, 2 + 10 * S)).as("its time is over").isFalse();
    }

    @Test
    void failingAgainAfterItsTime_ejectedTwiceAsLong_cappedAtTheMaximum() {
        for (int i = 0; i < 3; i++) {
            detector.failure(pod, 0);
        }
        long t = 10 * S;
        assertThat(detector.failure(pod, t)).as("re-ejections are not logged again").isEqualTo(Transition.NONE);
        assertThat(detector.ejected(pod, t + 20 * S - 1)).as("20 s the second time").isTrue();
        assertThat(detector.ejected(pod, t + 20 * S)).isFalse();
        t += 20 * S;
        detector.failure(pod, t);
        assertThat(detector.ejected(pod, t + 25 * S - 1)).as("40 s capped at 25 s").isTrue();
        assertThat(detector.ejected(pod, t + 25 * S)).isFalse();
    }

    @Test
    void anyEjected_onlyWhileSomeEjectionLasts_theLatestEndingOneCounts() {
        Pod other = pod("q").build();
        assertThat(detector.anyEjected(0)).as("nothing failed yet").isFalse();
        for (int i = 0; i < 3; i++) {
            detector.failure(pod, 0); // ejected until 10 s
        }
        assertThat(detector.anyEjected(10 * S - 1)).isTrue();
        assertThat(detector.anyEjected(10 * S)).as("its ejection is over, though it never succeeded").isFalse();
        assertThat(detector.ejected(pod, 10 * S)).isFalse();
        detector.failure(pod, 10 * S); // ejected again, twice as long: until 30 s
        for (int i = 0; i < 3; i++) {
            detector.failure(other, 12 * S); // q's first ejection: until 22 s, before p's ends
        }
        assertThat(detector.anyEjected(30 * S - 1)).as("p is still out after q came back").isTrue();
        assertThat(detector.ejected(pod, 30 * S - 1)).isTrue();
        assertThat(detector.ejected(other, 22 * S)).isFalse();
        assertThat(detector.anyEjected(30 * S)).as("both ejections over").isFalse();
    }

    @Test
    void successEndsTheStreak_andBringsAnEjectedPodBackAtOnce() {
        detector.failure(pod, 0);
        detector.failure(pod, 0);
        assertThat(detector.success(pod, 0)).isEqualTo(Transition.NONE);
        detector.failure(pod, 0);
        detector.failure(pod, 0);
        assertThat(detector.ejected(pod, 0)).as("the streak restarted").isFalse();
        detector.failure(pod, 0);
        assertThat(detector.ejected(pod, 0)).isTrue();
        assertThat(detector.success(pod, 1)).isEqualTo(Transition.RETURNED);
        assertThat(detector.ejected(pod, 1)).isFalse();
        assertThat(detector.ejectedCount(1)).isZero();
    }

    @Test
    void recreatedAtAnotherAddress_startsClean_andDepartedPodsAreForgotten() {
        for (int i = 0; i < 3; i++) {
            detector.failure(pod, 0);
        }
        Pod moved = new Pod(pod.namespace(), pod.name(), pod.model(), "10.9.9.9", pod.port(), pod.metricPort(),
                pod.engine(), pod.role(), pod.rolesetName(), null, 8998, null, java.util.Map.of());
        assertThat(detector.ejected(moved, 0)).isFalse();
        detector.retainOnly(Set.of());
        assertThat(detector.ejected(pod, 0)).isFalse();
        assertThat(detector.ejectedCount(0)).isZero();
    }
}
