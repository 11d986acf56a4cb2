package io.pdgateway.sim.kvevents;

import io.pdgateway.core.tokenize.BpeTokenizer;
import io.pdgateway.core.tokenize.HfTokenizerJson;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The small byte-level BPE tokenizer pods tokenize with when they publish KV-cache events ({@value #RESOURCE}, made by
 * gateway-core's {@code tokenize/make_tokenizer.py}: 656 tokens shaped like Llama 3's). A gateway pointed at the same
 * file computes the same token ids, so its prefix hashes meet the blocks the pods report. Loaded once, shared.
 */
public final class BundledTokenizer {
    /** Class-path location; {@link #json()} gives the text so tests can hand the gateway the same file. */
    public static final String RESOURCE = "/io/pdgateway/sim/kvevents/tokenizer.json";

    private BundledTokenizer() {}

    public static BpeTokenizer get() {
        return Holder.TOKENIZER;
    }

    /** The tokenizer.json text. */
    public static String json() {
        try (InputStream in = BundledTokenizer.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("engine-sim is missing its bundled " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Holder {
        static final BpeTokenizer TOKENIZER = load();

        private static BpeTokenizer load() {
            try {
                return HfTokenizerJson.parse(json());
            } catch (TokenizerFormatException e) {
                throw new IllegalStateException("engine-sim's bundled " + RESOURCE + " is unusable", e);
            }
        }
    }
}
