package io.pdgateway.server.front;

import io.netty.channel.ChannelPipeline;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.impl.Http2ServerConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.StreamResetException;
import io.pdgateway.server.http.RateLimitedLog;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds how long a client connection may hold a socket while no request is in progress on it, as nginx's
 * client_header_timeout and keepalive_timeout do: a new connection must deliver its first request's headers within
 * the header timeout (slowloris trickles them to hold sockets), and a connection is closed once it has had no request
 * in progress for the keep-alive timeout. While a request is in progress neither runs: a long answer is bounded by
 * the body timeout and the legs' own timeouts, not here. A closed connection gets no answer (no request was read to
 * answer), and counts in pd_gateway_client_connections_closed_total by reason.
 *
 * <p>After a response, the keep-alive timeout also bounds the next request's headers: Vert.x shows a request only
 * once its headers are complete, so a slow next request and an idle connection look alike until then. Both limits
 * apply to HTTP/2 connections too (counting streams). Also installs {@link StrictFramingDecoder} on HTTP/1.x
 * connections (with h2c on, after their first request: {@link FirstRequestFraming}). Runs on each connection's event
 * loop; the map of open connections is the only shared state.
 */
public final class ClientConnections implements Handler<HttpConnection> {
    /** pd_gateway_client_connections_closed_total reason: no whole request head within the header timeout. */
    public static final String HEADER_TIMEOUT = "header_timeout";
    /** pd_gateway_client_connections_closed_total reason: no request in progress for the keep-alive timeout. */
    public static final String IDLE_TIMEOUT = "idle_timeout";

    /** The name Vert.x gives its idle-timeout handler in the channel pipeline. */
    private static final String VERTX_IDLE_HANDLER = "idle";
    /**
     * The name of the handler with which Vert.x, h2c on, reads a connection's first HTTP/1.x request to see whether
     * it asks for an upgrade; present while that request is being read.
     */
    private static final String VERTX_H2C_HANDLER = "h2c";

    private final Vertx vertx;
    private final HttpServerOptions options;
    private final long headerTimeoutMs;
    private final long keepAliveTimeoutMs;
    private final GatewayMetrics metrics;
    private final Map<HttpConnection, Guard> open = new ConcurrentHashMap<>();
    /** A client may reset streams as fast as it likes (rapid reset): one line per minute says how many. */
    private final RateLimitedLog resets = new RateLimitedLog(LoggerFactory.getLogger(ClientConnections.class),
            "HTTP/2 streams reset by clients", TimeUnit.MINUTES.toNanos(1), System::nanoTime);

    public ClientConnections(Vertx vertx, HttpServerOptions options, double headerTimeoutSeconds,
            double keepAliveTimeoutSeconds, GatewayMetrics metrics) {
        this.vertx = vertx;
        this.options = options;
        this.headerTimeoutMs = Math.max(1, Math.round(headerTimeoutSeconds * 1000));
        this.keepAliveTimeoutMs = Math.max(1, Math.round(keepAliveTimeoutSeconds * 1000));
        this.metrics = metrics;
        metrics.clientConnections(open::size, HEADER_TIMEOUT, IDLE_TIMEOUT);
    }

    @Override
    public void handle(HttpConnection connection) {
        handOver(connection);
        Guard guard = new Guard(connection, strictFraming(connection));
        open.put(connection, guard);
        connection.closeHandler(v -> {
            open.remove(connection);
            guard.cancel();
        });
        guard.arm(headerTimeoutMs, HEADER_TIMEOUT);
    }

    /**
     * The header timeout as Vert.x's idle timeout ({@link #listenerOptions}), for the time before Vert.x hands a
     * connection over: with h2c on, it waits for the first bytes to tell HTTP/1.1 from HTTP/2, and a connection that
     * sends nothing would never reach {@link #handle}. From here on this class bounds the connection, so Vert.x's
     * idle handler goes: it would also cut a request whose answer takes longer than the limit.
     */
    private static void handOver(HttpConnection connection) {
        if (connection instanceof ConnectionBase base && base.channel().pipeline().get(VERTX_IDLE_HANDLER) != null) {
            base.channel().pipeline().remove(VERTX_IDLE_HANDLER);
        }
    }

    /** Sets the listener's idle timeout to the header timeout: it bounds a connection until {@link #handle} runs. */
    public static HttpServerOptions listenerOptions(HttpServerOptions options, double headerTimeoutSeconds) {
        return options.setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setIdleTimeout((int) Math.max(1, Math.round(headerTimeoutSeconds * 1000)));
    }

    /**
     * Swaps Vert.x's HTTP/1.x decoder for the strict one: at once when nothing has been read yet, else (h2c on, the
     * first request's head already read) once that request has been read, by the returned {@link FirstRequestFraming}
     * (null otherwise). HTTP/2 connections have no HTTP/1.x decoder but while an upgrade request is still being read,
     * whose decoder Vert.x removes once it has been.
     */
    private FirstRequestFraming strictFraming(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base) || connection instanceof Http2ServerConnection) {
            return null;
        }
        ChannelPipeline pipeline = base.channel().pipeline();
        if (!(pipeline.get(StrictFramingDecoder.PIPELINE_NAME) instanceof VertxHttpRequestDecoder)) {
            return null;
        }
        StrictFramingDecoder strict = new StrictFramingDecoder(options);
        if (pipeline.get(VERTX_H2C_HANDLER) == null) {
            pipeline.replace(StrictFramingDecoder.PIPELINE_NAME, StrictFramingDecoder.PIPELINE_NAME, strict);
            return null;
        }
        FirstRequestFraming first = new FirstRequestFraming(strict);
        pipeline.addAfter(StrictFramingDecoder.PIPELINE_NAME, FirstRequestFraming.PIPELINE_NAME, first);
        return first;
    }

    /**
     * A request's headers arrived: its connection's timers stop until its response has ended, and {@code ended} runs
     * once when it has, however it ends (the response's end, a reset stream, a connection that closed under it).
     */
    public void requestStarted(HttpServerRequest req, Runnable ended) {
        Guard guard = open.get(req.connection());
        if (guard != null) {
            guard.started();
        }
        boolean closeAfter = guard != null && guard.firstRequestFramedLeniently(req);
        if (closeAfter) {
            req.response().putHeader(HttpHeaders.CONNECTION, "close");
        }
        boolean[] over = {false};
        Handler<Void> end = v -> {
            if (!over[0]) {
                over[0] = true;
                ended.run();
                if (guard != null) {
                    guard.ended();
                    if (closeAfter) {
                        guard.connection.close();
                    }
                }
            }
        };
        req.response().endHandler(end);
        // A reset HTTP/2 stream ends without its response ending (Vert.x tells the request or the response, depending
        // on how far it got); its connection carries on.
        Handler<Throwable> failed = e -> {
            if (e instanceof StreamResetException && !over[0]) {
                resets.note();
            }
            end.handle(null);
        };
        req.exceptionHandler(failed);
        req.response().exceptionHandler(failed);
    }

    /** Client connections open now. */
    public int openConnections() {
        return open.size();
    }

    /**
     * One connection's timer: armed while no request is in progress on it. A keep-alive connection starts and ends a
     * request thousands of times a minute, so these only move a deadline; the one pending timer, when it fires, closes
     * the connection if the deadline has passed with nothing in progress, else waits out the rest of the deadline.
     */
    private final class Guard {
        private final HttpConnection connection;
        /** Until the first request has started: set where that request is framed by Vert.x's own decoder. */
        private FirstRequestFraming firstRequest;
        private int inProgress;
        private long timer = -1;
        private long timerDueNanos;
        private long deadlineNanos;
        private String reason;

        Guard(HttpConnection connection, FirstRequestFraming firstRequest) {
            this.connection = connection;
            this.firstRequest = firstRequest;
        }

        /**
         * Whether this is the first request of a connection whose first request Vert.x's decoder framed, and it
         * carried a Transfer-Encoding: then the connection reads nothing more and closes once it is answered.
         */
        boolean firstRequestFramedLeniently(HttpServerRequest req) {
            FirstRequestFraming first = firstRequest;
            firstRequest = null;
            if (first == null || !req.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
                return false;
            }
            first.inDoubt();
            return true;
        }

        void started() {
            inProgress++;
        }

        void ended() {
            inProgress--;
            if (inProgress == 0) {
                arm(keepAliveTimeoutMs, IDLE_TIMEOUT);
            }
        }

        void arm(long delayMs, String why) {
            reason = why;
            deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            if (timer >= 0 && timerDueNanos > deadlineNanos) {
                cancel(); // a longer limit was pending: this one is due first
            }
            if (timer < 0) {
                schedule(delayMs);
            }
        }

        private void schedule(long delayMs) {
            timerDueNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            timer = vertx.setTimer(delayMs, id -> fired());
        }

        private void fired() {
            timer = -1;
            if (inProgress > 0) {
                return; // the request's end arms it again
            }
            long left = deadlineNanos - System.nanoTime();
            if (left > 0) {
                schedule(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                return;
            }
            metrics.clientConnectionClosed(reason);
            connection.close();
        }

        void cancel() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
        }
    }
}
