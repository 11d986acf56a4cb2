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
    void aJvmsCompilerThreads_haveCompiled_andAShellHasNone() throws Exception {
        assertThat(ProcessCpu.of(ProcessHandle.current().pid()).orElseThrow().compilerNanos()).isPositive();
        Process shell = new ProcessBuilder("sh", "-c", "read line").start();
        try {
            assertThat(ProcessCpu.of(shell.pid()).orElseThrow().compilerNanos()).isZero();
        } finally {
            shell.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void statFields_areCountedAfterTheCommandsLastBracket() {
        // A thread may call itself anything, brackets and spaces included: "C2 (x) y" here.
        String stat = "42 (C2 (x) y) S 1 1 1 0 -1 4194304 10 0 0 0 7 5 0 0 20 0 1 0 100 0 0";

        assertThat(ProcessCpu.cpuTicks(stat)).isEqualTo(12);
    }

    @Test
    void perRequest_isNaNWhenAReadingIsMissingOrNothingWasServed() {
        assertThat(ProcessCpu.microsPerRequest(1_000_000, 5_000_000, 10)).isEqualTo(400.0);
        assertThat(ProcessCpu.microsPerRequest(-1, 5_000_000, 10)).isNaN();
        assertThat(ProcessCpu.microsPerRequest(1_000_000, 5_000_000, 0)).isNaN();
    }
}
