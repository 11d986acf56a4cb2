package io.pdgateway.sim;

import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Every request a pod received, in arrival order, for tests to inspect. Thread-safe. */
public final class RequestRecorder {

    /** Kept requests; a standalone pod serving a long benchmark would otherwise grow without bound. */
    static final int LIMIT = 10_000;

    private final ArrayDeque<RecordedRequest> all = new ArrayDeque<>();
    private final ArrayDeque<RecordedRequest> untaken = new ArrayDeque<>();

    void record(HttpServerRequest request, String body) {
        Map<String, String> headers = new TreeMap<>();
        request.headers().forEach(h -> headers.merge(h.getKey().toLowerCase(Locale.ROOT), h.getValue(),
                (a, b) -> a + ", " + b));
        RecordedRequest recorded = new RecordedRequest(request.method().name(), request.path(), headers, body);
        synchronized (this) {
            append(all, recorded);
            append(untaken, recorded);
        }
    }

    synchronized List<RecordedRequest> snapshot() {
        return List.copyOf(all);
    }

    /** The oldest request on {@code path} not taken before, or null. */
    synchronized RecordedRequest take(String path) {
        for (Iterator<RecordedRequest> it = untaken.iterator(); it.hasNext(); ) {
            RecordedRequest next = it.next();
            if (next.path().equals(path)) {
                it.remove();
                return next;
            }
        }
        return null;
    }

    private static void append(ArrayDeque<RecordedRequest> queue, RecordedRequest recorded) {
        if (queue.size() >= LIMIT) {
            queue.pollFirst();
        }
        queue.addLast(recorded);
    }
}
