package io.pdgateway.sim.kvevents;

import io.pdgateway.core.tokenize.BpeTokenizer;
import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.HfTokenizerJson;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The small byte-level BPE tokenizer pods tokenize with when they publish KV-cache events ({@value #RESOURCE}, made by
 * gateway-core's {@code tokenize/make_tokenizer.py}: 656 tokens shaped like Llama 3's). A gateway pointed at the same
 * file computes the same token ids, so its prefix hashes meet the blocks the pods report. Beside it,
 * {@value #CONFIG_RESOURCE} holds the chat template such pods render chat requests with before tokenizing, as vLLM and
 * SGLang render the model's own (Llama 3's prompt format, tools listed in a system turn): a gateway must be given it
 * too, or tokenize remotely, for a chat prompt's blocks to meet theirs. Loaded once, shared.
 */
public final class BundledTokenizer {
    /** Class-path location; {@link #json()} gives the text so tests can hand the gateway the same file. */
    public static final String RESOURCE = "/io/pdgateway/sim/kvevents/tokenizer.json";
    /** Class-path location of the tokenizer_config.json with the pods' chat template. */
    public static final String CONFIG_RESOURCE = "/io/pdgateway/sim/kvevents/tokenizer_config.json";

    private BundledTokenizer() {}

    public static BpeTokenizer get() {
        return Holder.TOKENIZER;
    }

    /** The chat template tokenizing pods render chat requests with. */
    public static ChatTemplate chatTemplate() {
        return Holder.CHAT_TEMPLATE;
    }

    /** The tokenizer.json text. */
    public static String json() {
        return text(RESOURCE);
    }

    /** The tokenizer_config.json text, for tests that hand a gateway the same chat template. */
    public static String configJson() {
        return text(CONFIG_RESOURCE);
    }

    private static String text(String resource) {
        try (InputStream in = BundledTokenizer.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("engine-sim is missing its bundled " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Holder {
        static final BpeTokenizer TOKENIZER = load();
        static final ChatTemplate CHAT_TEMPLATE = loadChatTemplate();

        private static BpeTokenizer load() {
            try {
                return HfTokenizerJson.parse(json());
            } catch (TokenizerFormatException e) {
                throw new IllegalStateException("engine-sim's bundled " + RESOURCE + " is unusable", e);
            }
        }

        private static ChatTemplate loadChatTemplate() {
            try {
                return ChatTemplate.fromTokenizerConfig(configJson());
            } catch (TokenizerFormatException e) {
                throw new IllegalStateException("engine-sim's bundled " + CONFIG_RESOURCE + " is unusable", e);
            }
        }
    }
}
