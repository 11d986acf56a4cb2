package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.spec.SpecHeaders;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.pdgateway.server.trace.LegTrace;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The head of every leg the gateway sends to a pod: POST to the client's path on the pod's address (which comes from
 * discovery, never from the request), JSON, the request id, and the few client headers worth passing on. Nothing
 * else of the client's reaches a pod: not its Host, not a target-pod header. With tracing on, the trace context a leg
 * carries is its own span's, not the client's.
 */
public final class LegOptions {
    /** W3C trace context headers: passed through as the client sent them, or replaced by the leg's own. */
    private static final List<String> TRACE_HEADERS = List.of("traceparent", "tracestate");
    /** Client headers worth passing to the pods (upstream forwards the same set, and traceparent). */
    private static final List<String> FORWARDED_HEADERS = List.of(SpecHeaders.SESSION_KEY,
            SpecHeaders.ROUTING_STRATEGY);
    private static final String AUTHORIZATION = "authorization";

    private final UnaryOperator<String> client;
    private final String path;
    private final String requestId;
    private final boolean forwardAuthorization;

    /**
     * @param forwardAuthorization false when the gateway checks client API keys itself: the client's key is the
     *     gateway's credential then, not the pods'
     */
    LegOptions(HttpServerRequest client, String path, String requestId, boolean forwardAuthorization) {
        this(client::getHeader, path, requestId, forwardAuthorization);
    }

    /**
     * @param clientHeader the client's header by name (case-insensitive), or null when absent
     * @param forwardAuthorization as above
     */
    public LegOptions(UnaryOperator<String> clientHeader, String path, String requestId, boolean forwardAuthorization) {
        this.client = clientHeader;
        this.path = path;
        this.requestId = requestId;
        this.forwardAuthorization = forwardAuthorization;
    }

    public RequestOptions forPod(Pod pod) {
        return forPod(pod, LegTrace.OFF);
    }

    /** The leg's head; with {@code trace} recording, its trace context instead of the client's. */
    public RequestOptions forPod(Pod pod, LegTrace trace) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(pod.ip()).setPort(pod.port())
                .setURI(path)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("X-Request-Id", requestId);
        if (forwardAuthorization) {
            copy(options, AUTHORIZATION);
        }
        for (String name : FORWARDED_HEADERS) {
            copy(options, name);
        }
        if (trace.recording()) {
            trace.inject((name, value) -> options.putHeader(name, value));
        } else {
            for (String name : TRACE_HEADERS) {
                copy(options, name);
            }
        }
        return options;
    }

    private void copy(RequestOptions options, String name) {
        String value = client.apply(name);
        if (value != null) {
            options.putHeader(name, value);
        }
    }
}
