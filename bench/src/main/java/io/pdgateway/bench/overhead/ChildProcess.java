package io.pdgateway.bench.overhead;

import io.pdgateway.server.cli.NettyAccess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A process the overhead benchmark starts (the gateway, nginx) and always stops, also when the benchmark itself is
 * stopped (Ctrl-C): a gateway left behind holds its port, its pods' connections and, after {@code bench streams},
 * thousands of streams. Its output is read on a daemon thread (a full pipe would stall it) and the last lines kept
 * for the error message when it fails to start.
 */
final class ChildProcess implements AutoCloseable {
    /** Lines kept for error messages: enough to show a stack trace's top. */
    static final int KEPT_LINES = 40;
    /** How long a SIGTERM may take before SIGKILL: the gateway drains in-flight requests, which are none by then. */
    static final long STOP_TIMEOUT_MS = 10_000;

    private final String name;
    private final Process process;
    private final Deque<String> lines = new ArrayDeque<>();
    /** Stops the process if the benchmark's JVM exits first (try-with-resources does not run on a signal). */
    private final Thread reaper;

    private ChildProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(this::pump, name + "-output");
        reader.setDaemon(true);
        reader.start();
        reaper = new Thread(this::stop, name + "-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /**
     * The start of a child JVM's command line: this JVM's {@code java} with the flags {@code java -jar} gets from the
     * jar's manifest ({@link NettyAccess#JVM_FLAGS}), so a gateway or reference proxy runs as deployed. Mutable: the
     * caller appends its options, class path and main class.
     */
    static List<String> javaAsDeployed() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(NettyAccess.JVM_FLAGS);
        return command;
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        return new ChildProcess(name, builder.start());
    }

    /** Waits until a line of output matches, the process dies, or the timeout passes; returns the matching line. */
    String awaitLine(Predicate<String> match, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            synchronized (lines) {
                for (String line : lines) {
                    if (match.test(line)) {
                        return line;
                    }
                }
            }
            if (!process.isAlive()) {
                break;
            }
            sleep(20);
        }
        throw new IOException(name + " did not start within " + timeoutMillis + " ms"
                + (process.isAlive() ? "" : " (exit " + process.exitValue() + ")") + "; last output:\n" + output());
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    lines.addLast(line);
                    if (lines.size() > KEPT_LINES) {
                        lines.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone; close() reports nothing more
        }
    }

    /** SIGTERM, then SIGKILL if it does not exit in time. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running or has run
        }
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
