package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A proxy's CPU counts the processes it serves from (nginx's workers), not only the one the benchmark started. */
class ProcessCpuTest {
    @Test
    void aBusyChildOfAnIdleParent_countsAsTheParentsCpu() throws Exception {
        // The shell itself only waits; the loop it starts in the background is what burns a core, as a worker would.
        Process parent = new ProcessBuilder("sh", "-c", "while :; do :; done & wait").start();
        try {
            ProcessCpu cpu = ProcessCpu.of(parent.pid()).orElseThrow();
            long start = cpu.nanos();

            await().atMost(Duration.ofSeconds(30)).until(() -> cpu.nanos() - start >= 200_000_000L);
            assertThat(parent.info().totalCpuDuration().orElseThrow()).isLessThan(Duration.ofMillis(100));
        } finally {
            parent.descendants().forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void perRequest_isNaNWhenAReadingIsMissingOrNothingWasServed() {
        assertThat(ProcessCpu.microsPerRequest(1_000_000, 5_000_000, 10)).isEqualTo(400.0);
        assertThat(ProcessCpu.microsPerRequest(-1, 5_000_000, 10)).isNaN();
        assertThat(ProcessCpu.microsPerRequest(1_000_000, 5_000_000, 0)).isNaN();
    }
}
