package io.pdgateway.core.tokenize;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

/**
 * The special tokens a tokenizer's post-processor puts around a single text when special tokens are added, as engines
 * add them to a completion's prompt ({@code add_special_tokens}, on by default in vLLM's and SGLang's completions):
 * Llama's BOS before it, BERT's CLS and SEP around it. Read from a {@code tokenizer.json}'s {@code post_processor}:
 * TemplateProcessing (its {@code single} template), BertProcessing and RobertaProcessing, ByteLevel (adds none), and
 * a Sequence of those. Immutable.
 */
public record SpecialTokens(int[] before, int[] after) {
    public static final SpecialTokens NONE = new SpecialTokens(new int[0], new int[0]);

    public SpecialTokens {
        before = before.clone();
        after = after.clone();
    }

    /** The ids with these around them. */
    public int[] around(int[] ids) {
        if (before.length == 0 && after.length == 0) {
            return ids;
        }
        int[] out = Arrays.copyOf(before, before.length + ids.length + after.length);
        System.arraycopy(ids, 0, out, before.length, ids.length);
        System.arraycopy(after, 0, out, before.length + ids.length, after.length);
        return out;
    }

    /**
     * Whether an engine adds the special tokens to this request's prompt: the request's own {@code add_special_tokens},
     * else vLLM's default, on for a completion and off for a chat (its template writes them).
     */
    public static boolean added(JsonNode request, boolean chat) {
        return request.path("add_special_tokens").asBoolean(!chat);
    }

    /** The post-processor's special tokens, or {@link #NONE} when it has none (or none is given). */
    static SpecialTokens of(JsonNode postProcessor) throws TokenizerFormatException {
        if (postProcessor == null || postProcessor.isNull() || postProcessor.isMissingNode()) {
            return NONE;
        }
        String type = postProcessor.path("type").asText();
        return switch (type) {
            case "ByteLevel" -> NONE;
            case "TemplateProcessing" -> template(postProcessor);
            case "BertProcessing", "RobertaProcessing" -> new SpecialTokens(new int[] {idOf(postProcessor, "cls")},
                    new int[] {idOf(postProcessor, "sep")});
            case "Sequence" -> {
                SpecialTokens all = NONE;
                for (JsonNode step : postProcessor.path("processors")) {
                    SpecialTokens one = of(step); // applied to what the steps before it made: its tokens go outside
                    all = new SpecialTokens(concat(one.before, all.before), concat(all.after, one.after));
                }
                yield all;
            }
            default -> throw new TokenizerFormatException("post-processor " + (type.isEmpty() ? "(none)" : type)
                    + " is not supported");
        };
    }

    /** TemplateProcessing's single template: special tokens before the sequence {@code $A}, then after it. */
    private static SpecialTokens template(JsonNode processor) throws TokenizerFormatException {
        int[] before = new int[0];
        int[] after = new int[0];
        boolean sequenceSeen = false;
        for (JsonNode piece : processor.path("single")) {
            if (piece.has("Sequence")) {
                sequenceSeen = true;
            } else if (piece.has("SpecialToken")) {
                String name = piece.path("SpecialToken").path("id").asText();
                JsonNode ids = processor.path("special_tokens").path(name).path("ids");
                if (!ids.isArray() || ids.isEmpty()) {
                    throw new TokenizerFormatException("the post-processor's special token " + name + " has no ids");
                }
                int[] these = new int[ids.size()];
                for (int i = 0; i < these.length; i++) {
                    these[i] = ids.get(i).asInt();
                }
                if (sequenceSeen) {
                    after = concat(after, these);
                } else {
                    before = concat(before, these);
                }
            } else {
                throw new TokenizerFormatException("the post-processor's template piece " + piece
                        + " is not supported");
            }
        }
        return new SpecialTokens(before, after);
    }

    private static int idOf(JsonNode processor, String field) throws TokenizerFormatException {
        JsonNode pair = processor.path(field);
        if (!pair.isArray() || pair.size() != 2 || !pair.get(1).canConvertToInt()) {
            throw new TokenizerFormatException("the post-processor's " + field + " is not a [token, id] pair");
        }
        return pair.get(1).asInt();
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
