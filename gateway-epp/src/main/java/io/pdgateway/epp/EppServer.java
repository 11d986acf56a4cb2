package io.pdgateway.epp;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.front.ApiKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The endpoint picker's gRPC server beside a running gateway: the ext_proc service and the protocol's health checks,
 * on their own port. gRPC runs on its own (shaded) Netty; each stream's work moves to a Vert.x context of the gateway.
 */
public final class EppServer implements AutoCloseable {
    /** Bounds one ext_proc message: a buffered body up to the gateway's own body limit, plus headers and framing. */
    static final int MESSAGE_OVERHEAD_BYTES = 64 * 1024;

    private final Server server;

    private EppServer(Server server) {
        this.server = server;
    }

    /**
     * Starts the picker on {@code host:port} (port 0: any free port) over the gateway's routing session.
     *
     * @param defaultBodyMode what to assume when Envoy does not send its processing mode
     */
    public static EppServer start(GatewayServer gateway, String host, int port, BodyMode defaultBodyMode) {
        ApiKeys apiKeys = ApiKeys.load(gateway.upstreams().settings());
        PickerContext context = new PickerContext(gateway, apiKeys, defaultBodyMode);
        int maxMessage = gateway.upstreams().settings().front().maxRequestBodyBytes() + MESSAGE_OVERHEAD_BYTES;
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .addService(new EndpointPicker(context))
                .addService(new PickerHealth(() -> gateway.pods().ready() && !gateway.draining()))
                .maxInboundMessageSize(maxMessage)
                .build();
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port + " for ext_proc", e);
        }
        return new EppServer(server);
    }

    public int port() {
        return server.getPort();
    }

    /** Stops taking streams and lets those in flight end for up to {@code grace}; then cuts the rest. */
    public void stop(Duration grace) {
        server.shutdown();
        try {
            if (!server.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                server.shutdownNow();
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop(Duration.ZERO);
    }
}
