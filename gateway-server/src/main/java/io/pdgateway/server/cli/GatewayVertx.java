package io.pdgateway.server.cli;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway process's Vert.x: on Linux x86-64 over Netty's native epoll transport, which writes a relayed chunk
 * with one system call on the buffer's own memory where NIO first wraps it in ByteBuffer slices and goes through its
 * selector; anywhere the native library cannot load, over NIO as before (said once in the log).
 */
public final class GatewayVertx {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayVertx.class);

    private GatewayVertx() {
    }

    public static Vertx create() {
        Vertx vertx = Vertx.vertx(options());
        if (vertx.isNativeTransportEnabled()) {
            LOG.info("network transport: native epoll");
        } else {
            LOG.info("network transport: Java NIO (native epoll unavailable: {})",
                    vertx.unavailableNativeTransportCause() == null ? "unknown"
                            : vertx.unavailableNativeTransportCause().toString());
        }
        LOG.info(NettyAccess.describe());
        return vertx;
    }

    /** The gateway's Vert.x options, for a process that runs beside it and should use the same transport (the bench). */
    public static VertxOptions options() {
        return new VertxOptions().setPreferNativeTransport(true);
    }
}
