package io.pdgateway.server.routing;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/** Prompt tokens in cl100k_base, as upstream's bucketing counts them (reference §2.5). Thread-safe. */
public final class PromptTokenizer {
    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private PromptTokenizer() {}

    /** Loads the encoding now (about half a second), so the first routed request does not pay for it. */
    public static void warmUp() {
        count("warm up");
    }

    public static int count(String text) {
        return text == null || text.isEmpty() ? 0 : CL100K.countTokens(text);
    }

    public static int[] encode(String text) {
        return text == null || text.isEmpty() ? new int[0] : CL100K.encode(text).toArray();
    }
}
