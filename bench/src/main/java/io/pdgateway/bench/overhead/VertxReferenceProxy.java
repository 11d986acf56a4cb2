package io.pdgateway.bench.overhead;

import io.pdgateway.server.cli.GatewayVertx;
import io.pdgateway.server.http.TurnWrites;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The least a proxy on the gateway's own HTTP stack can do, as the reference {@code vertx-http} of
 * {@code bench overhead --jvm-references}: Vert.x 5's server and client set up as the gateway sets up its own (native
 * epoll, a listener per core with a pod client bound to its loop, keep-alive pooled pod connections, no WebSocket
 * compression), and per request only what any relay must do: read the body whole (as the gateway does to route), send
 * it to the one upstream, and write the streamed answer's chunks to the client as they come, a turn's chunks after
 * its first gathered into one write by the gateway's own {@link TurnWrites} (written chunk by chunk, a naive relay
 * spent 38 % of its CPU in {@code writev}). No routing, metrics, scrapes, timers, tracing or ledger: between it and
 * netty-http lies Vert.x's HTTP layer; between it and pd-gateway lies the gateway's own code. Run as its own
 * process: {@code VertxReferenceProxy UPSTREAM_HOST UPSTREAM_PORT}; it prints {@code listening on port N}.
 */
public final class VertxReferenceProxy {
    public static final String NAME = "vertx-http";
    /** As the gateway's pod clients: a pooled connection idle this long is closed. */
    private static final int KEEP_ALIVE_SECONDS = 4;
    private static final int POOL_SIZE = 1024;

    private final Vertx vertx;
    private final List<HttpServer> servers;

    private VertxReferenceProxy(Vertx vertx, List<HttpServer> servers) {
        this.vertx = vertx;
        this.servers = servers;
    }

    public static void main(String[] args) {
        VertxReferenceProxy proxy = start(args[0], Integer.parseInt(args[1]));
        // Vert.x's event-loop threads keep the process alive until it is stopped.
        System.out.println(NettyReferenceProxy.LISTENING + proxy.port());
    }

    /** Listens on a free loopback port, relaying to {@code host:port}. */
    public static VertxReferenceProxy start(String host, int port) {
        Vertx vertx = Vertx.vertx(GatewayVertx.options());
        List<HttpServer> servers = new CopyOnWriteArrayList<>();
        HttpServerOptions options = new HttpServerOptions().setPerFrameWebSocketCompressionSupported(false)
                .setPerMessageWebSocketCompressionSupported(false).setTcpNoDelay(true);
        // Each instance runs on its own event loop: its server and its client belong to that loop, as the gateway's.
        Supplier<Deployable> listener = () -> context -> {
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAliveTimeout(KEEP_ALIVE_SECONDS)
                    .setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(POOL_SIZE));
            HttpServer server = vertx.createHttpServer(options).requestHandler(req -> relay(req, client, host, port));
            servers.add(server);
            return server.listen(-1, "127.0.0.1"); // -1: one random port shared by every listener of this Vert.x
        };
        vertx.deployVerticle(listener, new DeploymentOptions().setInstances(Runtime.getRuntime()
                .availableProcessors())).await();
        return new VertxReferenceProxy(vertx, servers);
    }

    private static void relay(HttpServerRequest req, HttpClient client, String host, int port) {
        HttpServerResponse out = req.response();
        RequestOptions leg = new RequestOptions().setMethod(req.method()).setHost(host).setPort(port).setURI(req.uri());
        String type = req.getHeader(HttpHeaders.CONTENT_TYPE);
        if (type != null) {
            leg.putHeader(HttpHeaders.CONTENT_TYPE, type);
        }
        req.body().compose(body -> client.request(leg).compose(sent -> sent.send(body)))
                .onSuccess(answer -> stream(answer, out))
                .onFailure(e -> {
                    if (!out.headWritten()) {
                        out.setStatusCode(502).end();
                    } else {
                        out.reset();
                    }
                });
    }

    private static void stream(HttpClientResponse answer, HttpServerResponse out) {
        out.setStatusCode(answer.statusCode()).setChunked(true);
        String type = answer.getHeader(HttpHeaders.CONTENT_TYPE);
        if (type != null) {
            out.putHeader(HttpHeaders.CONTENT_TYPE, type);
        }
        TurnWrites writes = new TurnWrites(out);
        answer.handler(writes::write);
        answer.exceptionHandler(e -> out.reset());
        answer.endHandler(v -> {
            Buffer rest = writes.take();
            if (rest == null) {
                out.end();
            } else {
                out.end(rest);
            }
        });
    }

    public int port() {
        return servers.get(0).actualPort();
    }

    public void close() {
        vertx.close().await();
    }
}
