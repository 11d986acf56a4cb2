package io.pdgateway.sim.kv;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.RequestScope;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * The decode side of a {@link KvRendezvous}: asks the prefill pod at {@code host:port} for the KV under a key,
 * waiting as long as the prefill may take, and checks that the KV belongs to this request's prompt. Any failure
 * (refused, 404 after the wait, a check or prompt mismatch) fails the future with a message that says why. The
 * fetch is cancelled when the request ends first.
 */
public final class KvRendezvousFetcher {

    public static final String KV_FAILURE = "KV transfer failed: ";
    /** Beyond the modelled wait: the prefill pod answers the wait's end itself, this only catches a dead pod. */
    private static final long IDLE_MARGIN_MILLIS = 5_000;

    private final PodContext pod;

    public KvRendezvousFetcher(PodContext pod) {
        this.pod = pod;
    }

    /**
     * The decode's KV plan: the KV fetched from {@code host:port} ({@link KvPlan#REMOTE_KV}), or a failure whose
     * message starts with "KV transfer failed: " (what the pod answers with 500). The failKvFetch fault fails it.
     *
     * @param waitingTimeoutMillis the modelled time the prefill side lets a taker wait
     */
    public Future<KvPlan> plan(String host, int port, String key, long check, PromptTokens prompt,
            double waitingTimeoutMillis, FaultConfig faults, RequestScope scope) {
        if (faults.failKvFetch()) {
            return Future.failedFuture(KV_FAILURE + "cannot fetch KV from prefill pod " + host + ":" + port
                    + " (injected failKvFetch fault)");
        }
        return fetch(host, port, key, check, prompt, waitingTimeoutMillis, scope)
                .transform(done -> done.succeeded() ? Future.succeededFuture(KvPlan.REMOTE_KV)
                        : Future.failedFuture(KV_FAILURE + done.cause().getMessage()));
    }

    private Future<Void> fetch(String host, int port, String key, long check, PromptTokens prompt,
            double waitingTimeoutMillis, RequestScope scope) {
        String where = host + ":" + port;
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost(host)
                .setPort(port)
                .setURI(KvRendezvous.path(key, check))
                .setConnectTimeout(PodContext.SIDE_CHANNEL_CONNECT_TIMEOUT_MILLIS)
                .setIdleTimeout(pod.loop().protocolTimeoutWallMillis(waitingTimeoutMillis) + IDLE_MARGIN_MILLIS);
        pod.stats().kvFetchesInFlight++;
        return pod.client().request(options)
                .compose(request -> {
                    scope.onEnd(request::reset);
                    return request.send();
                })
                .compose(response -> response.body().compose(body -> {
                    if (response.statusCode() != 200) {
                        return Future.failedFuture("answered " + response.statusCode() + ": " + body);
                    }
                    return verify(body.toString(), prompt);
                }))
                .transform(done -> {
                    pod.stats().kvFetchesInFlight--;
                    return done.succeeded() ? Future.<Void>succeededFuture()
                            : Future.<Void>failedFuture("cannot fetch KV from prefill pod " + where + ": "
                                    + done.cause().getMessage());
                });
    }

    private static Future<Void> verify(String body, PromptTokens prompt) {
        JsonNode kv;
        try {
            kv = JsonCodec.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return Future.failedFuture("answered a KV description that is not JSON: " + body);
        }
        if (kv.path("tokens").asInt() != prompt.count() || !prompt.digest().equals(kv.path("prompt_digest").asText())) {
            return Future.failedFuture(KvMismatch.message(kv.path("tokens").asInt(), prompt.count()));
        }
        return Future.succeededFuture();
    }
}
