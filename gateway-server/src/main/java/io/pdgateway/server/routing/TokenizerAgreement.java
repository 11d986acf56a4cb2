package io.pdgateway.server.routing;

import io.pdgateway.core.model.Pod;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.kvevents.EngineTokenizeClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code check-tokenizer}, run by the gateway itself: for each model whose prompts it tokenizes with the model's own
 * file and whose pods publish KV events, it asks one such pod's {@code /tokenize} for the probes' tokens, once (a pod
 * that renders chat, vLLM's, when there is one; else the completion probe alone, SGLang's), and says in the log
 * whether its own ids agree: an INFO line when they do, a WARN naming the
 * probe, where the ids part and the command to look closer when they do not (a mismatch fails nowhere else: the
 * gateway's blocks just never meet the engine's). A pod that does not answer is tried again at the next sync, at most
 * {@value #MAX_ATTEMPTS} times a model. State: one entry per model present.
 */
public final class TokenizerAgreement {
    private static final Logger LOG = LoggerFactory.getLogger(TokenizerAgreement.class);
    static final int MAX_ATTEMPTS = 3;
    private static final long TIMEOUT_MS = 5_000;

    private final ModelTokenizers models;
    private final EngineAdapters engines;
    private final EngineTokenizeClient client;
    /**
     * Attempts made per model; a model whose check ended is at {@link #MAX_ATTEMPTS} or more. Concurrent: the answers
     * complete on the caller's context in Vert.x, but nothing here should depend on which loop that is.
     */
    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    private final Set<String> asking = ConcurrentHashMap.newKeySet();

    public TokenizerAgreement(Vertx vertx, Supplier<HttpClient> http, EngineAdapters engines, ModelTokenizers models) {
        this.models = models;
        this.engines = engines;
        this.client = new EngineTokenizeClient(vertx, http, TIMEOUT_MS);
    }

    /**
     * Starts the check of each model not checked yet that has a pod to ask among these, the pods that publish KV events
     * ({@code KvEventsFollower.publishingPods}; from the upkeep's loop).
     */
    public void check(Collection<Pod> publishing) {
        Set<String> present = new HashSet<>();
        Map<String, Pod> toAsk = new HashMap<>();
        for (Pod pod : publishing) {
            present.add(pod.model());
            if (models.tokenizer(pod.model()) != null && attempts.getOrDefault(pod.model(), 0) < MAX_ATTEMPTS
                    && !asking.contains(pod.model()) && tokenizes(pod, false)) {
                Pod chosen = toAsk.get(pod.model());
                if (chosen == null || !tokenizes(chosen, true) && tokenizes(pod, true)) {
                    toAsk.put(pod.model(), pod); // one that renders chat too, when the model has one
                }
            }
        }
        attempts.keySet().retainAll(present);
        toAsk.forEach(this::ask);
    }

    /** Whether the pod's {@code /tokenize} takes prompts, or with {@code chat} chat messages too (vLLM's). */
    private boolean tokenizes(Pod pod, boolean chat) {
        EngineAdapter adapter = engines.forEngine(pod.engine());
        return adapter != null && adapter.tokenize().takes(chat);
    }

    private void ask(String model, Pod pod) {
        attempts.merge(model, 1, Integer::sum);
        asking.add(model);
        TokenizerCheck check = new TokenizerCheck(model, models);
        boolean chat = tokenizes(pod, true);
        List<TokenizerCheck.Probe> probes = check.probes().stream().filter(probe -> chat || !probe.chat()).toList();
        List<Future<int[]>> answers = new ArrayList<>();
        for (TokenizerCheck.Probe probe : probes) {
            answers.add(client.post(pod.ip(), pod.port(), false, Buffer.buffer(check.askBody(probe))));
        }
        Future.all(answers).onComplete(ar -> {
            asking.remove(model);
            if (ar.failed()) {
                LOG.info("model {}: could not compare its tokenizer file with {}'s /tokenize ({}){}", model, pod.id(),
                        ar.cause().getMessage(), attempts.getOrDefault(model, 0) < MAX_ATTEMPTS ? "; trying again"
                                : "");
                return;
            }
            attempts.put(model, MAX_ATTEMPTS);
            report(model, pod, check, probes, answers);
        });
    }

    private static void report(String model, Pod pod, TokenizerCheck check, List<TokenizerCheck.Probe> probes,
            List<Future<int[]>> answers) {
        for (int i = 0; i < probes.size(); i++) {
            TokenizerCheck.Outcome outcome = check.compare(probes.get(i), answers.get(i).result());
            if (!outcome.agrees()) {
                int at = outcome.firstDifference();
                LOG.warn("model {}: the gateway tokenizes a {} unlike {}'s /tokenize, from token {} (gateway {}, "
                        + "engine {}): its prompts' blocks cannot meet the ones that pod reports in KV events. Look "
                        + "closer with: bin/pd-gateway check-tokenizer --engine http://{}:{} --model {}", model,
                        outcome.probe().name(), pod.id(), at, check.quotedAt(outcome.gateway(), at),
                        check.quotedAt(outcome.engine(), at), pod.ip(), pod.port(), model);
                return;
            }
        }
        LOG.info("model {}: the gateway's tokens agree with {}'s /tokenize on {} probe request{}", model, pod.id(),
                probes.size(), probes.size() == 1 ? "" : "s");
    }
}
