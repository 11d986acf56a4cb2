package io.pdgateway.engine;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The completions API's batches: a {@code prompt} that is a list of prompts (strings, or lists of token ids) asks for
 * one answer per prompt in one request. Some engines' PD hand-off carries one prompt: vLLM's prefill answer holds the
 * KV-transfer parameters of the batch's first prompt only (its completions server returns the first result's), so a
 * decode leg given that answer would read the first prompt's KV for every prompt; TensorRT-LLM's disaggregated server
 * refuses any batch. Their adapters refuse a batch at admission, before a prefill pod computes prompts whose KV no
 * decode pod would ever take; the gateway then serves it on a standard pod of the model, if it has one. SGLang numbers
 * a batch's bootstrap rooms itself (room, room + 1, ...) on both pods, so its batches pass.
 */
public final class PromptBatches {
    private PromptBatches() {}

    /**
     * How many prompts the body asks to complete: the length of a list of strings or of token-id lists; 1 for a single
     * prompt (a string, one list of token ids) or a body without {@code prompt} (chat). Only a list is read.
     */
    public static int count(TopLevelJson body) throws EngineProtocolException {
        if (!body.isArray("prompt")) {
            return 1;
        }
        JsonNode prompt = JsonBodies.parse(body.rawValue("prompt"));
        return prompt.isEmpty() || prompt.get(0).isNumber() ? 1 : prompt.size();
    }

    /**
     * Refuses a batch of more than one prompt: {@code engine}'s PD hand-off, as {@code why} says, carries one; a
     * standard pod, which takes the body whole, can serve it ({@link UnpairableBodyException}).
     */
    public static void requireOne(TopLevelJson body, String engine, String why) throws EngineProtocolException {
        int prompts = count(body);
        if (prompts > 1) {
            throw new UnpairableBodyException("a batch of " + prompts + " prompts in \"prompt\": " + why + ", so "
                    + engine + " prefill/decode pods serve one prompt per request; send each prompt as a request of"
                    + " its own");
        }
    }
}
