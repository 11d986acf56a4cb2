package io.pdgateway.bench.overhead;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** A {@link NettyReferenceProxy} in a JVM of its own, as the gateway runs in its own: started, measured, stopped. */
final class ReferenceProxyChild implements AutoCloseable {
    static final long START_TIMEOUT_MS = 30_000;

    private final String name;
    private final ChildProcess process;
    private final int port;

    private ReferenceProxyChild(String name, ChildProcess process, int port) {
        this.name = name;
        this.process = process;
        this.port = port;
    }

    /** Starts one in {@code mode} ({@link NettyReferenceProxy#HTTP} or {@link NettyReferenceProxy#TCP}). */
    static ReferenceProxyChild start(String mode, String upstreamHost, int upstreamPort) throws IOException {
        String name = "netty-" + mode;
        // The JVM's defaults and flags, as the gateway child gets them: the reference pays what the gateway's
        // runtime pays.
        List<String> command = ChildProcess.javaAsDeployed();
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), NettyReferenceProxy.class.getName(), mode,
                upstreamHost, Integer.toString(upstreamPort)));
        ChildProcess process = ChildProcess.start(name, command, Map.of());
        try {
            String line = process.awaitLine(l -> l.startsWith(NettyReferenceProxy.LISTENING), START_TIMEOUT_MS);
            int port = Integer.parseInt(line.substring(NettyReferenceProxy.LISTENING.length()).trim());
            return new ReferenceProxyChild(name, process, port);
        } catch (IOException | RuntimeException e) {
            process.close();
            throw e;
        }
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.close();
    }
}
