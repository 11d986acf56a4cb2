package io.pdgateway.server.it;

import static org.awaitility.Awaitility.await;

import io.pdgateway.server.cli.ServeCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code pd-gateway serve} as a real child process, started from this test JVM's own classpath (which the reactor
 * build made), so that a test can send it SIGTERM and watch it exit. Its log lines are kept and echoed.
 */
final class GatewayProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");
    /** A JVM start plus the jtokkit and Vert.x warm-up takes a few seconds on a busy 2-core machine. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** After exit, the pipe still holds the last lines; reading them takes milliseconds. */
    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(5);

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private final int port;

    private GatewayProcess(Process process) {
        this.process = process;
        reader = new Thread(this::pump, "gateway-process-output");
        reader.setDaemon(true);
        reader.start();
        int listening;
        try {
            listening = await().atMost(START_TIMEOUT).until(this::listeningPort, p -> p > 0 || !process.isAlive());
        } catch (RuntimeException e) {
            // The caller never gets this object to close: a child that did not start must not outlive the test (one
            // that hung at start-up once ran on for hours after its test failed).
            process.destroyForcibly();
            throw new IllegalStateException("gateway process not listening after " + START_TIMEOUT + ":\n"
                    + String.join("\n", lines), e);
        }
        port = listening;
        if (port <= 0) {
            throw new IllegalStateException("gateway process died before listening:\n" + String.join("\n", lines));
        }
    }

    /** {@code serve --pods FILE} on an ephemeral loopback port, plus extra arguments. */
    static GatewayProcess serve(Path podFile, String... extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("--pods", podFile.toString()));
        args.addAll(List.of(extraArgs));
        return serve(Map.of(), args);
    }

    /** {@code serve} on an ephemeral loopback port with the given arguments and extra environment variables. */
    static GatewayProcess serve(Map<String, String> env, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), ServeCommand.class.getName(),
                "--host", "127.0.0.1", "--port", "0"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        return new GatewayProcess(builder.start());
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
                System.out.println("[gateway process] " + line);
            }
        } catch (IOException e) {
            // the process went away; its exit is what the test looks at
        }
    }

    private int listeningPort() {
        for (String line : lines) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return -1;
    }

    int port() {
        return port;
    }

    /** Waits for the process to exit and for its last log lines to be read; true if it exited in time. */
    boolean waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        reader.join(OUTPUT_DRAIN.toMillis());
        return true;
    }


    /** The child's process id (its CPU time is in /proc). */
    long pid() {
        return process.pid();
    }

    int exitValue() {
        return process.exitValue();
    }

    /**
     * SIGTERM, as the kubelet sends it. Through the ProcessHandle: Process.destroy() sends the same signal but also
     * closes our end of the output pipe, which would lose the log lines of the drain.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /** Everything the process has printed so far. */
    String output() {
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
