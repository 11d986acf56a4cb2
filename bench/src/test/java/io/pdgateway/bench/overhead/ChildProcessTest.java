package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A benchmark stopped by a signal (Ctrl-C) stops the processes it started, as it does when it ends. */
class ChildProcessTest {
    @Test
    void benchmarkJvmTerminated_itsChildStopsToo() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process benchmark = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                StartsAChild.class.getName()).redirectErrorStream(true).start();
        long childPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(benchmark.getInputStream(),
                StandardCharsets.UTF_8))) {
            childPid = Long.parseLong(out.readLine().strip());
        }
        ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();
        assertThat(child.isAlive()).isTrue();

        benchmark.destroy(); // SIGTERM, as Ctrl-C's SIGINT: shutdown hooks run
        assertThat(benchmark.waitFor(30, TimeUnit.SECONDS)).isTrue();

        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> !child.isAlive());
        } finally {
            child.destroyForcibly();
        }
    }

    /** The benchmark's side: starts a long-lived child, prints its pid, and waits to be stopped. */
    public static final class StartsAChild {
        public static void main(String[] args) throws Exception {
            ChildProcess child = ChildProcess.start("sleeper", List.of("sleep", "600"), Map.of());
            System.out.println(child.pid());
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
