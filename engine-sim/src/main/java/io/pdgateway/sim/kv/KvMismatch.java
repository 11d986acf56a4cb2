package io.pdgateway.sim.kv;

/**
 * Why a decode pod refuses the KV it fetched: it was computed for another prompt than the one the decode pod holds.
 * With one gateway and one client that is almost always two pods of the model tokenizing alike text differently.
 */
public final class KvMismatch {
    private KvMismatch() {}

    public static String message(int prefillTokens, int decodeTokens) {
        return "the KV was computed for another prompt (" + prefillTokens + " tokens) than this request's ("
                + decodeTokens + " tokens); if the prompt is the same, the two pods tokenize it differently: a pod "
                + "started with --kv-events-config tokenizes with the bundled tokenizer, so start the others with "
                + "--tokenizer bundled";
    }
}
