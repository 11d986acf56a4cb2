package io.pdgateway.sim.kv;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.RequestScope;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * The prefill side of a KV handover in which prefill and decode find each other by a key, in either order: SGLang's
 * {@code bootstrap_room} and TensorRT-LLM's {@code disagg_request_id}. A finished prefill deposits its KV under the
 * key; a decode asks for the key over {@code GET /sim/rendezvous/{key}?check=N} and waits when the KV is not there
 * yet. The handover takes the modelled transfer time ({@code s + tokens·bytes/BW} × time scale × kvTransferSlowdown,
 * transfers queueing on one link), then the decode gets the KV's description and the depositor learns it was taken.
 *
 * <p>{@code check} is a second id both sides must agree on (TensorRT-LLM's ctx_request_id; the room again for
 * SGLang): a mismatch is a 409 and leaves the KV in place. Held KV counts against the pod's KV capacity until taken
 * or given up. Lives on the pod's event loop. Stands in for SGLang's bootstrap server plus the RDMA push, and for
 * TensorRT-LLM's KV-cache transceiver.
 */
public final class KvRendezvous {

    public static final String PREFIX = "/sim/rendezvous/";

    private record Entry(String key, long check, int tokens, String digest, int blocks, Promise<Void> taken,
            long expiryTimer) {
    }

    private record Waiter(long check, HttpServerResponse response, long timer) {
    }

    private final PodContext pod;
    private final double heldTimeoutMillis;
    private final double waitingTimeoutMillis;
    private final Map<String, Entry> held = new HashMap<>();
    private final Map<String, Waiter> waiters = new HashMap<>();
    private long linkFreeAtNanos;

    /**
     * @param heldTimeoutMillis    modelled time a deposited KV waits for its taker before it is given up
     * @param waitingTimeoutMillis modelled time a taker waits for the KV to be deposited
     */
    public KvRendezvous(PodContext pod, double heldTimeoutMillis, double waitingTimeoutMillis) {
        this.pod = pod;
        this.heldTimeoutMillis = heldTimeoutMillis;
        this.waitingTimeoutMillis = waitingTimeoutMillis;
    }

    static String path(String key, long check) {
        return PREFIX + key + "?check=" + check;
    }

    /** Deposits requests waiting for their taker (SGLang's prefill bootstrap queue, in spirit). */
    public int depositsWaiting() {
        return held.size();
    }

    /** Takers waiting for their KV. */
    int takersWaiting() {
        return waiters.size();
    }

    /**
     * Holds the KV of a finished prefill under {@code key} until a decode takes it. The future completes when it was
     * taken and fails when nobody took it within the held timeout, or when the request ended first (its KV goes).
     */
    public Future<Void> deposit(String key, long check, PromptTokens prompt, RequestScope scope) {
        Entry previous = held.remove(key);
        if (previous != null) {
            giveUp(previous, "replaced by a newer request with the same key " + key);
        }
        int blocks = pod.kvPool().blocksFor(prompt.count());
        pod.kvPool().forceReserve(blocks);
        Promise<Void> taken = Promise.promise();
        long timer = pod.vertx().setTimer(pod.loop().protocolTimeoutWallMillis(heldTimeoutMillis), id -> {
            Entry expired = held.get(key);
            if (expired != null && expired.taken() == taken) {
                held.remove(key);
                giveUp(expired, "no decode took the KV for " + key + " within "
                        + Math.round(heldTimeoutMillis / 1000) + " s");
            }
        });
        Entry entry = new Entry(key, check, prompt.count(), prompt.digest(), blocks, taken, timer);
        held.put(key, entry);
        scope.onEnd(() -> {
            if (held.remove(key, entry)) {
                pod.vertx().cancelTimer(entry.expiryTimer());
                giveUp(entry, "the prefill request ended before its KV was taken");
            }
        });
        Waiter waiter = waiters.remove(key);
        if (waiter != null) {
            pod.vertx().cancelTimer(waiter.timer());
            serve(waiter.check(), waiter.response(), entry);
        }
        return taken.future();
    }

    /** {@code GET /sim/rendezvous/{key}?check=N}: the KV now, or as soon as it is deposited, or a 404 in the end. */
    public void handle(HttpServerRequest request, String body) {
        HttpServerResponse response = request.response();
        String key = request.path().substring(PREFIX.length());
        long check;
        try {
            check = Long.parseLong(request.getParam("check"));
        } catch (NumberFormatException | NullPointerException e) {
            answer(response, 400, error("expected " + PREFIX + "{key}?check={id}"));
            return;
        }
        Entry entry = held.get(key);
        if (entry != null) {
            serve(check, response, entry);
            return;
        }
        if (waiters.containsKey(key)) {
            answer(response, 409, error("another decode already waits for the KV of " + key));
            return;
        }
        long timer = pod.vertx().setTimer(pod.loop().protocolTimeoutWallMillis(waitingTimeoutMillis), id -> {
            Waiter waiting = waiters.get(key);
            if (waiting != null && waiting.response() == response) {
                waiters.remove(key);
                answer(response, 404, error("no KV was deposited for " + key + " within "
                        + Math.round(waitingTimeoutMillis / 1000) + " s"));
            }
        });
        waiters.put(key, new Waiter(check, response, timer));
        response.closeHandler(v -> {
            Waiter waiting = waiters.get(key);
            if (waiting != null && waiting.response() == response) {
                waiters.remove(key);
                pod.vertx().cancelTimer(waiting.timer());
            }
        });
    }

    private void serve(long check, HttpServerResponse response, Entry entry) {
        if (entry.check() != check) {
            answer(response, 409, error("the KV under " + entry.key() + " belongs to request " + entry.check()
                    + ", not " + check));
            return;
        }
        held.remove(entry.key());
        pod.vertx().cancelTimer(entry.expiryTimer());
        double transferMillis = pod.loop().wallMillis(
                pod.config().timing().kvTransferMillis(entry.tokens()) * pod.faults().kvTransferSlowdown());
        long now = System.nanoTime();
        long end = Math.max(now, linkFreeAtNanos) + Math.round(transferMillis * 1e6);
        linkFreeAtNanos = end;
        long delayMillis = Math.round((end - now) / 1e6);
        Runnable deliver = () -> {
            release(entry);
            pod.kvTransfersServed().incrementAndGet();
            answer(response, 200, describe(entry));
            entry.taken().tryComplete();
        };
        if (delayMillis < 1) {
            deliver.run();
        } else {
            pod.vertx().setTimer(delayMillis, id -> deliver.run());
        }
    }

    private void giveUp(Entry entry, String why) {
        release(entry);
        entry.taken().tryFail(why);
    }

    private void release(Entry entry) {
        pod.kvPool().release(entry.blocks());
        pod.loop().capacityFreed();
    }

    private ObjectNode describe(Entry entry) {
        ObjectNode kv = JsonCodec.object();
        kv.put("key", entry.key());
        kv.put("check", entry.check());
        kv.put("engine_id", pod.engineId());
        kv.put("tokens", entry.tokens());
        kv.put("bytes", (long) entry.tokens() * pod.config().timing().kvBytesPerToken());
        kv.put("prompt_digest", entry.digest());
        return kv;
    }

    private static ObjectNode error(String message) {
        return JsonCodec.object().put("error", message);
    }

    private static void answer(HttpServerResponse response, int status, ObjectNode body) {
        if (!response.closed() && !response.ended()) {
            response.setStatusCode(status).putHeader("content-type", "application/json").end(JsonCodec.write(body));
        }
    }
}
