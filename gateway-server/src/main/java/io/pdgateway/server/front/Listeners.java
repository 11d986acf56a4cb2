package io.pdgateway.server.front;

import io.pdgateway.server.upstream.PodClients;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The client listener: one HTTP server per serving event loop, all on one port (Vert.x deals accepted connections out
 * among them in turn), each loop with its own pod client ({@link PodClients#bindToThisThread}), so a connection, its
 * requests and their legs all stay on the loop that accepted it. nginx runs a worker per core the same way.
 */
public final class Listeners {
    /**
     * Vert.x shares a random port among servers that listen on the same negative number; each gateway in a process
     * gets its own number, so two gateways asked for port 0 do not end up sharing one.
     */
    private static final AtomicInteger SHARED_RANDOM_PORTS = new AtomicInteger();

    private final Vertx vertx;
    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
    private String deployment;

    private Listeners(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Starts {@code loops} listeners on {@code host:port} (0: a free port, the same for all of them).
     *
     * @param connections sees every accepted connection, on its loop
     * @param requests    handles every request, on its connection's loop
     * @param undecodable answers a request whose head could not be decoded (on its loop; it never reaches requests)
     */
    public static Future<Listeners> start(Vertx vertx, int loops, HttpServerOptions options, String host, int port,
            Handler<HttpConnection> connections, Handler<HttpServerRequest> requests,
            Handler<HttpServerRequest> undecodable, PodClients clients) {
        int listenPort = port != 0 ? port : -SHARED_RANDOM_PORTS.incrementAndGet();
        Listeners listeners = new Listeners(vertx);
        // Runs on each listener's own event loop: the server and the pod client it binds belong to that loop.
        Supplier<Deployable> listener = () -> context -> {
            clients.bindToThisThread();
            HttpServer server = vertx.createHttpServer(options).connectionHandler(connections)
                    .requestHandler(requests).invalidRequestHandler(undecodable);
            listeners.servers.add(server);
            return server.listen(listenPort, host);
        };
        return vertx.deployVerticle(listener, new DeploymentOptions().setInstances(loops)).map(id -> {
            listeners.deployment = id;
            return listeners;
        });
    }

    /** The port they all listen on. */
    public int port() {
        return servers.get(0).actualPort();
    }

    /** Stops accepting; requests in flight have up to {@code graceMillis} to end, then what is open is closed. */
    public Future<Void> shutdown(long graceMillis) {
        List<Future<Void>> stopping = new ArrayList<>();
        servers.forEach(server -> stopping.add(server.shutdown(graceMillis, TimeUnit.MILLISECONDS)));
        return Future.all(stopping).mapEmpty();
    }

    public Future<Void> close() {
        return deployment == null ? Future.succeededFuture() : vertx.undeploy(deployment);
    }
}
