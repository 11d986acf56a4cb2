package io.pdgateway.bench.jmh;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.predict.PrefillModels;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.server.scrape.MetricsStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One model as the JMH benchmarks route over it: N pods in N/2 1P1D rolesets with random engine metrics, and a
 * conversation workload whose prompts share prefixes the way chat and agent traffic does. Every prompt starts with one
 * system prompt (a quarter of its tokens, held by every pod that computed any prompt), continues with one of 64
 * conversations' histories, and the measured request is conversation 3's next turn: its first 90 % is an earlier
 * prompt some pods hold, its last 10 % is new. Tokens as the server's character tokenizer makes them (4 bytes a
 * token, 16 tokens a block), so an 8,000-token prompt is 500 cache blocks.
 */
final class BenchModel {
    /** Conversations the earlier traffic belongs to; the measured request continues one of them. */
    static final int CONVERSATIONS = 64;
    static final int MEASURED_CONVERSATION = 3;

    final String name;
    final List<Pod> pods = new ArrayList<>();
    final Map<String, PodMetrics> metrics;
    private final int promptTokens;
    /** What the admission measures in a prompt (set by {@link #warm}, from the admission the benchmark routes with). */
    private PromptNeeds needs = new PromptNeeds(false, true);

    /** @param metrics where the pods' engine metrics go (shared by every model of a session) */
    BenchModel(String name, int podCount, int promptTokens, SplittableRandom seed, Map<String, PodMetrics> metrics) {
        this.name = name;
        this.promptTokens = promptTokens;
        this.metrics = metrics;
        for (int i = 0; i < podCount / 2; i++) {
            pods.add(pod(name + "-p" + i, PodRole.PREFILL, name + "-rs" + i, i));
            pods.add(pod(name + "-d" + i, PodRole.DECODE, name + "-rs" + i, i));
        }
        for (Pod pod : pods) {
            metrics.put(pod.id(), new PodMetrics(seed.nextInt(5), Double.NaN, Double.NaN, seed.nextDouble(),
                    seed.nextDouble(2000), 20 + seed.nextDouble(20), 434_000, 0));
        }
    }

    /**
     * The pods' engine metrics as the server keeps them for routing: in its {@link MetricsStore}, never stale (the
     * benchmark's scrapes are timed at 0 and nothing scrapes again).
     */
    static MetricsStore store(Map<String, PodMetrics> metrics) {
        MetricsStore store = new MetricsStore(Long.MAX_VALUE, System::nanoTime);
        metrics.forEach(store::put);
        return store;
    }

    /**
     * Earlier traffic: one request per pod, still in flight (its lease never released), each an earlier turn of one of
     * the conversations, so requests counts, token charges and the prefix-cache view look like a live model's. And
     * before that, every prefill pod answered a leg 20 s ago, longer than the 10 s fade period of predicted_ttft's
     * prefill-time model: each pod's model is fading back to its default, as an idle pod's does in a live cluster.
     * Until 2026-12-06 the benchmark's pods had never answered, so it did not see that every read of such a pod faded
     * its model again, a monitor and a pow a pod and decision (PrefillModels' fade steps since).
     */
    void warm(RoutingSession session, Admission admission) {
        needs = admission.needs();
        PrefillModels models = session.prefillModels();
        long sent = session.clock().nanoTime() - 20_000_000_000L;
        double uncached = promptTokens * 0.9;
        for (Pod pod : pods) {
            if (pod.role() == PodRole.PREFILL) {
                long took = Math.round(models.computeMillis(pod, uncached, 0, sent) * 1e6); // as its model predicts
                models.answered(models.dispatched(pod, uncached, 0, sent), sent + took);
            }
        }
        for (int i = 0; i < pods.size(); i++) {
            session.route(admission, earlierTurn(i % CONVERSATIONS), "warm-" + i, null);
        }
    }

    /** An earlier turn of the conversation: the system prompt and the history, 90 % of the prompt length. */
    PromptFeatures earlierTurn(int conversation) {
        String text = system() + history(conversation);
        return features(text);
    }

    /** The measured request: conversation 3's history and a new turn. */
    PromptFeatures nextTurn() {
        String text = system() + history(MEASURED_CONVERSATION) + fill("the next question, ", promptTokens * 4 / 10);
        return features(text);
    }

    /**
     * The measured requests as a live conversation sends them: {@link #nextTurn}'s prompt, whose new last tenth is
     * different text at every call, so each decision's hold adds those blocks to the pod that computes them (and, once
     * a pod is full, evicts as many), as every chat turn in production does. Repeating one prompt, the benchmarks held
     * only blocks the pod already had after the first decision. One request's features, rewritten in place by each
     * call: read them only until the next.
     */
    NewTurns newTurns() {
        return new NewTurns(nextTurn());
    }

    /** See {@link #newTurns}. */
    static final class NewTurns {
        private final PromptFeatures features;
        private long turn;

        private NewTurns(PromptFeatures template) {
            this.features = new PromptFeatures(template.promptTokens(), template.prefixHashes().clone(),
                    template.bodyTokenEstimate());
        }

        /** The next turn: the shared prefix's blocks as before, the new text's blocks this turn's own. */
        PromptFeatures next() {
            renew(features.prefixHashes(), ++turn);
            return features;
        }

        /**
         * Rewrites the last tenth of a prompt's block hashes as turn {@code turn}'s new text: unique per turn and
         * block, never 0 (the hasher's chain would give a 0 hash only by chance too).
         */
        static void renew(long[] hashes, long turn) {
            for (int b = hashes.length * 9 / 10; b < hashes.length; b++) {
                hashes[b] = mix(turn * 1_000_003L + b) | 1;
            }
        }

        private static long mix(long x) {
            x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
            x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
            return x ^ (x >>> 31);
        }
    }

    private String system() {
        return fill("You are a helpful assistant of " + name + ". ", promptTokens * 4 / 4);
    }

    private String history(int conversation) {
        return fill("conversation " + conversation + " so far. ", promptTokens * 4 * 65 / 100);
    }

    /**
     * The prompt measured as the server's {@code PromptMeasurer} measures it for these needs: hashed into prefix blocks
     * only when the policy reads the prefix cache (so the load-only policies neither walk nor hold the cache).
     */
    private PromptFeatures features(String text) {
        long[] hashes = needs.blockHashes() ? hash(text) : null;
        int tokens = text.getBytes(StandardCharsets.UTF_8).length / 4;
        return new PromptFeatures(tokens, hashes, tokens + 200);
    }

    /** {@code bytes} bytes of the phrase repeated. */
    private static String fill(String phrase, int bytes) {
        StringBuilder out = new StringBuilder(bytes + phrase.length());
        while (out.length() < bytes) {
            out.append(phrase);
        }
        out.setLength(bytes);
        return out.toString();
    }

    /** The prompt's block hashes as the server computes them with the character tokenizer: 4 bytes a token. */
    private long[] hash(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return BlockHasher.chainOfWords(BlockHasher.seed(name), bytes, bytes.length / 4,
                BlockHasher.DEFAULT_BLOCK_TOKENS);
    }

    private Pod pod(String podName, PodRole role, String roleset, int i) {
        return new Pod("default", podName, name, "10." + (i / 62500) + "." + (i / 250 % 250) + "." + (i % 250), 8000,
                8000, "vllm", role, roleset, null, 8998, null, Map.of());
    }
}
