package io.pdgateway.bench.overhead;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A JVM reference proxy ({@link NettyReferenceProxy}'s two modes, {@link VertxReferenceProxy}) in a JVM of its own, as
 * the gateway runs in its own: started, measured, stopped.
 */
final class ReferenceProxyChild implements AutoCloseable {
    static final long START_TIMEOUT_MS = 30_000;
    /** The references of {@code --jvm-references}, by their names in the report. */
    static final List<String> NAMES = List.of("netty-" + NettyReferenceProxy.HTTP, "netty-" + NettyReferenceProxy.TCP,
            VertxReferenceProxy.NAME);

    private final String name;
    private final ChildProcess process;
    private final int port;

    private ReferenceProxyChild(String name, ChildProcess process, int port) {
        this.name = name;
        this.process = process;
        this.port = port;
    }

    /** Starts the one named (one of {@link #NAMES}). */
    static ReferenceProxyChild start(String name, String upstreamHost, int upstreamPort) throws IOException {
        String upstreamPortText = Integer.toString(upstreamPort);
        List<String> mainAndArguments = name.equals(VertxReferenceProxy.NAME)
                ? List.of(VertxReferenceProxy.class.getName(), upstreamHost, upstreamPortText)
                : List.of(NettyReferenceProxy.class.getName(), name.substring("netty-".length()), upstreamHost,
                        upstreamPortText);
        // The JVM's defaults and flags, as the gateway child gets them: the reference pays what the gateway's
        // runtime pays.
        List<String> command = ChildProcess.javaAsDeployed();
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        command.addAll(mainAndArguments);
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
