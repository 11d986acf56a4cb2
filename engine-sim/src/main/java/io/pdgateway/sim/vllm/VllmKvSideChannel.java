package io.pdgateway.sim.vllm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.PodContext;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The prefill side of the simulated KV transfer, on the pod's HTTP port:
 * {@code GET /sim/kv/{engine_id}/{first_block_id}} answers after the modelled transfer time
 * {@code s + tokens·bytes/BW} (× time scale × the kvTransferSlowdown fault) with the KV's description, then frees
 * the KV, so a second fetch gets 404. Transfers share one link: each starts when the previous one is done.
 * Stands in for NIXL's side channel and RDMA reads, which real vLLM pods run on their own port.
 */
final class VllmKvSideChannel {

    static final String PREFIX = "/sim/kv/";

    private final PodContext pod;
    private final VllmKvStore store;
    private long linkFreeAtNanos;

    VllmKvSideChannel(PodContext pod, VllmKvStore store) {
        this.pod = pod;
        this.store = store;
    }

    static String path(String engineId, int firstBlockId) {
        return PREFIX + engineId + "/" + firstBlockId;
    }

    void handle(HttpServerRequest request, String body) {
        HttpServerResponse response = request.response();
        String[] parts = request.path().substring(PREFIX.length()).split("/");
        if (parts.length != 2 || !parts[1].matches("\\d{1,9}")) {
            answer(response, 400, error("expected " + PREFIX + "{engine_id}/{first_block_id}"));
            return;
        }
        if (!parts[0].equals(pod.engineId())) {
            answer(response, 404, error("unknown engine id " + parts[0] + ", this pod is " + pod.engineId()));
            return;
        }
        VllmKvStore.Held held = store.take(Integer.parseInt(parts[1]));
        if (held == null) {
            answer(response, 404, error("no KV held for block " + parts[1] + " (already transferred or expired)"));
            return;
        }
        double transferMillis = pod.loop().wallMillis(
                pod.config().timing().kvTransferMillis(held.tokens()) * pod.faults().kvTransferSlowdown());
        long now = System.nanoTime();
        long end = Math.max(now, linkFreeAtNanos) + Math.round(transferMillis * 1e6);
        linkFreeAtNanos = end;
        long delayMillis = Math.round((end - now) / 1e6);
        Runnable deliver = () -> {
            store.release(held);
            pod.kvTransfersServed().incrementAndGet();
            answer(response, 200, describe(held));
        };
        if (delayMillis < 1) {
            deliver.run();
        } else {
            pod.vertx().setTimer(delayMillis, id -> deliver.run());
        }
    }

    private ObjectNode describe(VllmKvStore.Held held) {
        ObjectNode kv = JsonCodec.object();
        kv.put("engine_id", pod.engineId());
        held.blockIds().forEach(kv.putArray("block_ids")::add);
        kv.put("tokens", held.tokens());
        kv.put("bytes", held.tokens() * pod.config().timing().kvBytesPerToken());
        kv.put("prompt_digest", held.promptDigest());
        return kv;
    }

    private static ObjectNode error(String message) {
        return JsonCodec.object().put("error", message);
    }

    private static void answer(HttpServerResponse response, int status, ObjectNode body) {
        if (!response.closed()) {
            response.setStatusCode(status).putHeader("content-type", "application/json").end(JsonCodec.write(body));
        }
    }
}
