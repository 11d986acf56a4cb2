package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.server.upstream.PodClients;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client listener on several event loops: one port, connections dealt out among the loops, and a request's pod
 * client the one of the loop that reads it, so its legs never hop loops.
 */
class ListenersTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    /** Answers with the name of the thread that served the request; records the pod client that thread would use. */
    private static Handler<HttpServerRequest> answerWithThread(PodClients clients, Set<HttpClient> used) {
        return req -> {
            used.add(clients.current());
            req.response().end(Thread.currentThread().getName());
        };
    }

    /** One request on a new connection of its own. */
    private String onNewConnection(int port) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false),
                new PoolOptions().setHttp1MaxSize(1));
        try {
            return client.request(HttpMethod.GET, port, "127.0.0.1", "/")
                    .compose(req -> req.send().compose(res -> res.body()))
                    .map(Object::toString).await();
        } finally {
            client.close().await();
        }
    }

    private Listeners start(int loops, PodClients clients, Handler<HttpServerRequest> requests) {
        return Listeners.start(vertx, loops, new HttpServerOptions(), "127.0.0.1", 0, connection -> { }, requests,
                request -> request.connection().close(), clients).await();
    }

    @Test
    void connectionsAreDealtOutAmongTheLoops_andEachLoopUsesItsOwnPodClient() {
        PodClients clients = new PodClients(() -> vertx.createHttpClient());
        Set<HttpClient> used = ConcurrentHashMap.newKeySet();
        Listeners listeners = start(2, clients, answerWithThread(clients, used));

        List<String> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(onNewConnection(listeners.port()));
        }

        assertThat(Set.copyOf(threads)).as("threads that served four connections").hasSize(2)
                .allMatch(name -> name.startsWith("vert.x-eventloop-thread-"));
        assertThat(used).as("pod clients the serving loops used").hasSize(2).doesNotContain(clients.shared());
        clients.close().await();
    }

    @Test
    void twoGatewaysAskingForAnyFreePort_getOneEach() {
        PodClients clients = new PodClients(() -> vertx.createHttpClient());
        Listeners first = start(2, clients, req -> req.response().end("first"));
        Listeners second = start(2, clients, req -> req.response().end("second"));

        assertThat(first.port()).isNotEqualTo(second.port());
        for (int i = 0; i < 3; i++) {
            assertThat(onNewConnection(first.port())).isEqualTo("first");
            assertThat(onNewConnection(second.port())).isEqualTo("second");
        }
        Future.all(first.close(), second.close()).await();
    }

    @Test
    void offTheServingLoops_theSharedClientIsUsed() {
        PodClients clients = new PodClients(() -> vertx.createHttpClient());
        assertThat(clients.current()).isSameAs(clients.shared());
        clients.close().await();
    }
}
