package io.pdgateway.sim.vllm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.kv.KvMismatch;
import io.pdgateway.sim.api.PodContext;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The decode side of the simulated KV transfer: fetches the KV a prefill pod holds, over its side channel, and
 * checks that it is the KV of this request's prompt. Any failure (connection refused, 404, a prompt mismatch)
 * fails the future with a message that says why.
 */
final class VllmKvFetcher {

    /** No byte for this long means the prefill pod is gone; far above any modelled transfer at time scale 1. */
    static final long IDLE_TIMEOUT_MILLIS = 60_000;

    private final PodContext pod;

    VllmKvFetcher(PodContext pod) {
        this.pod = pod;
    }

    Future<Void> fetch(VllmKvParams.Remote remote, PromptTokens prompt) {
        String where = remote.host() + ":" + remote.port();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost(remote.host())
                .setPort(remote.port())
                .setURI(VllmKvSideChannel.path(remote.engineId(), remote.blockIds().get(0)))
                .setConnectTimeout(PodContext.SIDE_CHANNEL_CONNECT_TIMEOUT_MILLIS)
                .setIdleTimeout(IDLE_TIMEOUT_MILLIS);
        return pod.client().request(options)
                .compose(request -> request.send())
                .compose(response -> response.body().compose(body -> {
                    if (response.statusCode() != 200) {
                        return Future.failedFuture("answered " + response.statusCode() + ": " + body);
                    }
                    return verify(body.toString(), remote, prompt);
                }))
                .recover(e -> Future.failedFuture("cannot fetch KV from prefill pod " + where + ": " + e.getMessage()));
    }

    private static Future<Void> verify(String body, VllmKvParams.Remote remote, PromptTokens prompt) {
        JsonNode kv;
        try {
            kv = JsonCodec.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return Future.failedFuture("answered a KV description that is not JSON: " + body);
        }
        List<Integer> blocks = new ArrayList<>();
        kv.path("block_ids").forEach(id -> blocks.add(id.asInt()));
        if (!blocks.equals(remote.blockIds())) {
            return Future.failedFuture("remote_block_ids " + remote.blockIds() + " do not match the prefill's blocks "
                    + blocks);
        }
        if (kv.path("tokens").asInt() != prompt.count() || !prompt.digest().equals(kv.path("prompt_digest").asText())) {
            return Future.failedFuture(KvMismatch.message(kv.path("tokens").asInt(), prompt.count()));
        }
        return Future.succeededFuture();
    }
}
