package io.pdgateway.server.routing;

import com.fasterxml.jackson.databind.node.TextNode;
import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.tokenize.Tokenizer;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Whether the gateway tokenizes a model's prompts as its engine does, judged on a few probe requests: the token ids
 * routing hashes for each (the model's tokenizer file, its chat template for chat, the special tokens a completion
 * gets) against the ids the engine's own {@code /tokenize} answers for the same request, as the remote tokenizer asks
 * for them. Equal ids mean equal prefix blocks, so the gateway's hashes can meet the blocks the engine reports in its
 * KV events; a difference is reported where it starts. The caller does the asking ({@link #askBody}).
 */
public final class TokenizerCheck {
    /** A request to compare on: a completion, a chat with a system prompt, a chat with tools. */
    public record Probe(String name, String path, String body) {
        public boolean chat() {
            return path.equals(OpenAiRequestParser.CHAT_PATH);
        }
    }

    /** How one probe compared. {@code firstDifference} is -1 when the ids agree. */
    public record Outcome(Probe probe, int[] gateway, int[] engine, int blocks, int matchingBlocks,
            int firstDifference) {
        public boolean agrees() {
            return firstDifference < 0;
        }
    }

    private static final String TEXT = "Prefill and decode pods share the work of every request: the prefill pod "
            + "computes the prompt's KV cache, and the decode pod streams the answer, token by token, to the client. "
            + "A gateway that hashes the prompt as the engine tokenizes it can send the next turn to the pod that "
            + "already holds its prefix.";
    private final String model;
    private final PromptMeasurer measurer;
    private final Tokenizer tokenizer;

    /** @throws IllegalArgumentException when the model has no tokenizer file */
    public TokenizerCheck(String model, ModelTokenizers models) {
        this.model = model;
        this.tokenizer = models.tokenizer(model);
        if (tokenizer == null) {
            throw new IllegalArgumentException("model " + model + " has no tokenizer file in "
                    + ModelTokenizers.FILES_ENV);
        }
        this.measurer = new PromptMeasurer(PrefixTokenizerType.HUGGINGFACE, BlockHasher.DEFAULT_BLOCK_TOKENS, models);
    }

    public List<Probe> probes() {
        String quoted = TextNode.valueOf(model).toString();
        return List.of(
                new Probe("completion", OpenAiRequestParser.COMPLETIONS_PATH, "{\"model\":" + quoted
                        + ",\"prompt\":\"" + TEXT + "\"}"),
                new Probe("chat", OpenAiRequestParser.CHAT_PATH, "{\"model\":" + quoted + ",\"messages\":["
                        + "{\"role\":\"system\",\"content\":\"You answer in one paragraph.\"},"
                        + "{\"role\":\"user\",\"content\":\"" + TEXT + "\"}]}"),
                new Probe("chat with tools", OpenAiRequestParser.CHAT_PATH, "{\"model\":" + quoted + ",\"messages\":["
                        + "{\"role\":\"user\",\"content\":\"Which pod holds this prefix? " + TEXT + "\"}],"
                        + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"cache_lookup\",\"description\":"
                        + "\"Finds the pods holding a prefix\",\"parameters\":{\"type\":\"object\",\"properties\":"
                        + "{\"prefix\":{\"type\":\"string\"}}}}}]}"));
    }

    /** The {@code /tokenize} body to send the engine for the probe. */
    public String askBody(Probe probe) {
        return TokenizeBody.of(request(probe), probe.chat()).toString(StandardCharsets.UTF_8);
    }

    /** The probe's gateway ids against the engine's. */
    public Outcome compare(Probe probe, int[] engine) {
        int[] gateway = measurer.modelTokenIds(request(probe));
        long[] ours = BlockHasher.chain(BlockHasher.seed(model), gateway, gateway.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS);
        long[] theirs = BlockHasher.chain(BlockHasher.seed(model), engine, engine.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS);
        int matching = 0;
        while (matching < Math.min(ours.length, theirs.length) && ours[matching] == theirs[matching]) {
            matching++;
        }
        // -1 when equal; else the first index that differs, or the shorter length when one is the other's prefix
        return new Outcome(probe, gateway, engine, theirs.length, matching, Arrays.mismatch(gateway, engine));
    }

    /** The text of the three ids from {@code from}, as the tokenizer writes them, quoted as a JSON string. */
    public String quotedAt(int[] ids, int from) {
        int start = Math.max(0, Math.min(from, ids.length));
        return TextNode.valueOf(tokenizer.decode(Arrays.copyOfRange(ids, start, Math.min(ids.length, start + 3))))
                .toString();
    }

    private OpenAiRequest request(Probe probe) {
        try {
            return OpenAiRequestParser.parse(probe.path(), probe.body().getBytes(StandardCharsets.UTF_8));
        } catch (OpenAiRequestParser.Rejected e) {
            throw new IllegalStateException("probe " + probe.name() + " is not a valid request", e);
        }
    }
}
