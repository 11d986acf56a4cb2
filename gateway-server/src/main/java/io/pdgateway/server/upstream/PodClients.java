package io.pdgateway.server.upstream;

import io.vertx.core.Future;
import io.vertx.core.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The HTTP clients the legs reach pods with: one per event loop that serves clients, and a shared one for every other
 * thread. Vert.x keeps a pooled connection on the event loop that opened it; a request read on another loop that
 * borrows it has its head, body and every answer chunk handed across loops and back (two client loops with one
 * shared client sustained a third of one loop's rate). A loop's own client opens its connections on that loop, so a
 * request and its legs run on one thread from the first byte to the last.
 */
public final class PodClients {
    private final Supplier<HttpClient> factory;
    private final HttpClient shared;
    /** The client of the loop this thread runs, set once by {@link #bindToThisThread}; a plain thread has none. */
    private final ThreadLocal<HttpClient> onThisLoop = new ThreadLocal<>();
    private final List<HttpClient> perLoop = new ArrayList<>();

    /** @param factory makes one client; called once for the shared one and once per bound loop */
    public PodClients(Supplier<HttpClient> factory) {
        this.factory = factory;
        this.shared = factory.get();
    }

    /** The calling thread's client: its loop's own, or the shared one off the serving loops. */
    public HttpClient current() {
        HttpClient own = onThisLoop.get();
        return own != null ? own : shared;
    }

    /** Gives the calling thread (a serving event loop) a client of its own; idempotent. */
    public void bindToThisThread() {
        if (onThisLoop.get() == null) {
            HttpClient own = factory.get();
            synchronized (perLoop) {
                perLoop.add(own);
            }
            onThisLoop.set(own);
        }
    }

    /** The shared client: for the work that is not a request's (prerequisite probes, the picker's tests). */
    public HttpClient shared() {
        return shared;
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        closing.add(shared.close());
        synchronized (perLoop) {
            perLoop.forEach(client -> closing.add(client.close()));
        }
        return Future.all(closing).mapEmpty();
    }
}
