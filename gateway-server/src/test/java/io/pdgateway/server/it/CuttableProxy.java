package io.pdgateway.server.it;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on loopback that a test can cut (stop listening and drop every open connection, as an API server that
 * goes away does) and restore on the same port. It lets a test take the Kubernetes API away from the gateway while the
 * mock API server itself keeps its state and keeps accepting the test's own changes.
 */
final class CuttableProxy implements AutoCloseable {
    private final Vertx vertx;
    private final String targetHost;
    private final int targetPort;
    private final NetClient client;
    private final Set<NetSocket> open = ConcurrentHashMap.newKeySet();
    private NetServer server;
    private int port;

    CuttableProxy(Vertx vertx, String targetHost, int targetPort) {
        this.vertx = vertx;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.client = vertx.createNetClient();
        listen(0);
    }

    private void listen(int onPort) {
        server = vertx.createNetServer().connectHandler(downstream -> {
            downstream.pause();
            open.add(downstream);
            downstream.closeHandler(v -> open.remove(downstream));
            client.connect(targetPort, targetHost).onComplete(ar -> {
                if (ar.failed()) {
                    downstream.close();
                    return;
                }
                NetSocket upstream = ar.result();
                open.add(upstream);
                upstream.closeHandler(v -> {
                    open.remove(upstream);
                    downstream.close();
                });
                downstream.closeHandler(v -> {
                    open.remove(downstream);
                    upstream.close();
                });
                downstream.pipeTo(upstream);
                upstream.pipeTo(downstream);
                downstream.resume();
            });
        });
        port = server.listen(onPort, "127.0.0.1").await().actualPort();
    }

    int port() {
        return port;
    }

    /** The API server is gone: new connections are refused and open ones (the informers' watches) are dropped. */
    void cut() {
        server.close().await();
        open.forEach(NetSocket::close);
    }

    /** The API server is back on the same address. */
    void restore() {
        listen(port);
    }

    @Override
    public void close() {
        cut();
        client.close().await();
    }
}
