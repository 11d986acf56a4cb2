package io.pdgateway.core.tokenize;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.text.Normalizer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a Hugging Face {@code tokenizer.json} (its text: reading the file is the caller's I/O) into a
 * {@link BpeTokenizer}. Supported, which covers Llama 3, Qwen 2/2.5/3 and GPT-2 style models:
 * <ul>
 *   <li>model BPE, merges as "a b" strings or [a, b] pairs, {@code ignore_merges}, an optional {@code unk_token};
 *       {@code byte_fallback} must be off (SentencePiece-style models are not byte-level);
 *   <li>normalizer none, NFC or NFKC;
 *   <li>pre-tokenizer ByteLevel (GPT-2's split regex when {@code use_regex}), or a Sequence of Split (a regex,
 *       behavior Isolated, not inverted) and ByteLevel without its regex;
 *   <li>added tokens (special or not), matched in the raw text before anything else;
 *   <li>the post-processor's special tokens ({@link SpecialTokens}), which engines add to a completion's prompt and
 *       not to a rendered chat prompt (its template writes them).
 * </ul>
 * Anything else is refused with a {@link TokenizerFormatException} naming it, so a model the gateway would tokenize
 * differently from its engine fails at start-up rather than routing on wrong hashes.
 */
public final class HfTokenizerJson {
    /** GPT-2's pre-tokenizer regex, which ByteLevel applies when its use_regex is on. */
    static final String GPT2_SPLIT = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HfTokenizerJson() {}

    public static BpeTokenizer parse(String json) throws TokenizerFormatException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new TokenizerFormatException("not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new TokenizerFormatException("not a tokenizer.json object");
        }
        JsonNode model = root.path("model");
        if (!"BPE".equals(model.path("type").asText("BPE")) || !model.has("vocab")) {
            throw new TokenizerFormatException("model type " + model.path("type").asText("(none)")
                    + " is not supported; only byte-level BPE");
        }
        if (model.path("byte_fallback").asBoolean(false)) {
            throw new TokenizerFormatException("byte_fallback BPE (SentencePiece style) is not supported");
        }
        Map<String, Integer> vocab = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = model.get("vocab").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            vocab.put(e.getKey(), e.getValue().asInt());
        }
        Map<String, Integer> ranks = new HashMap<>();
        int rank = 0;
        for (JsonNode merge : model.path("merges")) {
            String left;
            String right;
            if (merge.isArray() && merge.size() == 2) {
                left = merge.get(0).asText();
                right = merge.get(1).asText();
            } else {
                String[] pair = merge.asText().split(" ", 2);
                if (pair.length != 2) {
                    throw new TokenizerFormatException("merge " + rank + " is not a pair: " + merge);
                }
                left = pair[0];
                right = pair[1];
            }
            ranks.putIfAbsent(BpeTokenizer.pairKey(left, right), rank++);
        }
        Integer unknown = null;
        if (model.hasNonNull("unk_token")) {
            unknown = vocab.get(model.get("unk_token").asText());
        }
        Map<String, Integer> added = new HashMap<>();
        for (JsonNode token : root.path("added_tokens")) {
            added.put(token.path("content").asText(), token.path("id").asInt());
        }
        Normalizer.Form form = normalizer(root.path("normalizer"));
        PreTokenizer pre = preTokenizer(root.path("pre_tokenizer"));
        return new BpeTokenizer(vocab, ranks, model.path("ignore_merges").asBoolean(false), unknown, added, pre.split,
                pre.addPrefixSpace, form, SpecialTokens.of(root.get("post_processor")));
    }

    private record PreTokenizer(Pattern split, boolean addPrefixSpace) {}

    private static Normalizer.Form normalizer(JsonNode n) throws TokenizerFormatException {
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        String type = n.path("type").asText();
        if (type.equals("NFC")) {
            return Normalizer.Form.NFC;
        }
        if (type.equals("NFKC")) {
            return Normalizer.Form.NFKC;
        }
        if (type.equals("Sequence") && n.path("normalizers").isEmpty()) {
            return null;
        }
        if (type.equals("Sequence") && n.path("normalizers").size() == 1) {
            return normalizer(n.path("normalizers").get(0));
        }
        throw new TokenizerFormatException("normalizer " + type + " is not supported");
    }

    private static PreTokenizer preTokenizer(JsonNode n) throws TokenizerFormatException {
        String type = n.path("type").asText();
        if (type.equals("ByteLevel")) {
            return new PreTokenizer(n.path("use_regex").asBoolean(true) ? compile(GPT2_SPLIT) : null,
                    n.path("add_prefix_space").asBoolean(false));
        }
        if (type.equals("Sequence")) {
            Pattern split = null;
            boolean byteLevel = false;
            boolean prefix = false;
            for (JsonNode step : n.path("pretokenizers")) {
                String stepType = step.path("type").asText();
                if (stepType.equals("Split") && split == null && !byteLevel) {
                    if (!"Isolated".equals(step.path("behavior").asText()) || step.path("invert").asBoolean(false)
                            || !step.path("pattern").has("Regex")) {
                        throw new TokenizerFormatException("a Split pre-tokenizer other than an isolated regex is "
                                + "not supported: " + step);
                    }
                    split = compile(step.path("pattern").path("Regex").asText());
                } else if (stepType.equals("ByteLevel") && !byteLevel && !step.path("use_regex").asBoolean(true)) {
                    byteLevel = true;
                    prefix = step.path("add_prefix_space").asBoolean(false);
                } else {
                    throw new TokenizerFormatException("pre-tokenizer step " + step + " is not supported here");
                }
            }
            if (!byteLevel) {
                throw new TokenizerFormatException("the pre-tokenizer sequence has no ByteLevel step");
            }
            return new PreTokenizer(split, prefix);
        }
        throw new TokenizerFormatException("pre-tokenizer " + (type.isEmpty() ? "(none)" : type)
                + " is not supported; only byte-level ones");
    }

    /**
     * Hugging Face's regexes run on Oniguruma, where \s and friends are Unicode-aware; Java's are ASCII unless asked.
     */
    private static Pattern compile(String regex) throws TokenizerFormatException {
        try {
            return Pattern.compile(regex, Pattern.UNICODE_CHARACTER_CLASS);
        } catch (PatternSyntaxException e) {
            throw new TokenizerFormatException("the pre-tokenizer regex does not compile in Java: " + e.getMessage(), e);
        }
    }
}
