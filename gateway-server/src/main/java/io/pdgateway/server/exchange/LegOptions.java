package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.spec.SpecHeaders;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.util.List;

/**
 * The head of every leg the gateway sends to a pod: POST to the client's path on the pod's address (which comes from
 * discovery, never from the request), JSON, the request id, and the few client headers worth passing on. Nothing
 * else of the client's reaches a pod: not its Host, not a target-pod header.
 */
final class LegOptions {
    /** Client headers worth passing to the pods (upstream forwards the same set). */
    private static final List<String> FORWARDED_HEADERS = List.of("traceparent", SpecHeaders.SESSION_KEY,
            SpecHeaders.ROUTING_STRATEGY);
    private static final String AUTHORIZATION = "authorization";

    private final HttpServerRequest client;
    private final String path;
    private final String requestId;
    private final boolean forwardAuthorization;

    /**
     * @param forwardAuthorization false when the gateway checks client API keys itself: the client's key is the
     *     gateway's credential then, not the pods'
     */
    LegOptions(HttpServerRequest client, String path, String requestId, boolean forwardAuthorization) {
        this.client = client;
        this.path = path;
        this.requestId = requestId;
        this.forwardAuthorization = forwardAuthorization;
    }

    RequestOptions forPod(Pod pod) {
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
        return options;
    }

    private void copy(RequestOptions options, String name) {
        String value = client.getHeader(name);
        if (value != null) {
            options.putHeader(name, value);
        }
    }
}
