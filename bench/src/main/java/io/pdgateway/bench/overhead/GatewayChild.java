package io.pdgateway.bench.overhead;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.server.cli.ServeCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code pd-gateway serve} as its own process, from this process's own jar, so the overhead benchmark measures one
 * gateway process exactly as deployed (its own JVM, heap and JIT), not a server sharing the load generator's JVM.
 */
public final class GatewayChild implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");
    /**
     * JVM flags for the gateway child only (e.g. {@code -XX:StartFlightRecording=filename=gw.jfr}), after
     * PD_GATEWAY_JAVA_OPTS, which the launcher also gives the benchmark's own JVM: profiling the gateway must not
     * profile the load generator too.
     */
    public static final String GATEWAY_JAVA_OPTS = "PD_GATEWAY_BENCH_GATEWAY_JAVA_OPTS";
    /** A JVM start plus the tokenizer warm-up takes a few seconds on a busy 2-core machine. */
    static final long START_TIMEOUT_MS = 60_000;

    private final ChildProcess process;
    private final int port;

    private GatewayChild(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** A gateway on an ephemeral loopback port over the pod file, routing with a non-PD strategy (proxying only). */
    public static GatewayChild start(Path podFile) throws IOException {
        return start(podFile, Map.of());
    }

    /**
     * As {@link #start(Path)}, with more environment variables for the gateway (its settings); a ROUTING_ALGORITHM
     * among them replaces the proxying-only default.
     */
    public static GatewayChild start(Path podFile, Map<String, String> extraEnv) throws IOException {
        return start(podFile, extraEnv, List.of());
    }

    /** As {@link #start(Path, Map)}, with more JVM options after every other (a {@link GatewayVariant}'s). */
    public static GatewayChild start(Path podFile, Map<String, String> extraEnv, List<String> jvmOptions)
            throws IOException {
        List<String> command = ChildProcess.javaAsDeployed();
        for (String variable : List.of("PD_GATEWAY_JAVA_OPTS", GATEWAY_JAVA_OPTS)) {
            String opts = System.getenv(variable);
            if (opts != null && !opts.isBlank()) {
                command.addAll(List.of(opts.trim().split("\\s+")));
            }
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServeCommand.class.getName(),
                "--pods", podFile.toString(), "--host", "127.0.0.1", "--port", "0", "--drain-grace-seconds", "1"));
        Map<String, String> env = new java.util.HashMap<>(extraEnv);
        env.putIfAbsent(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.RANDOM);
        ChildProcess process = ChildProcess.start("pd-gateway", command, env);
        try {
            Matcher m = LISTENING.matcher(process.awaitLine(line -> LISTENING.matcher(line).find(), START_TIMEOUT_MS));
            m.find();
            return new GatewayChild(process, Integer.parseInt(m.group(1)));
        } catch (IOException | RuntimeException e) {
            process.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Whether the gateway process still runs. */
    public boolean alive() {
        return process.alive();
    }

    /** The gateway's last lines of output (log), for a report of what it said when something failed. */
    public String output() {
        return process.output();
    }

    @Override
    public void close() {
        process.close();
    }
}
