package io.pdgateway.core.tokenize;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A byte-level BPE tokenizer as Hugging Face's tokenizers library runs one (Llama 3, Qwen 2, GPT-2 style): added tokens
 * are cut out of the text first; the rest is normalized, split by the pre-tokenizer's regex, mapped to the byte-level
 * alphabet, and each piece is merged pair by pair, lowest merge rank first, leftmost first among equals. Build with
 * {@link HfTokenizerJson#parse}. Thread-safe; recently seen pieces are cached.
 */
public final class BpeTokenizer implements Tokenizer {
    /** Pieces cached before the cache is emptied: a prompt's words repeat, and a bound keeps memory flat. */
    private static final int MAX_CACHED_PIECES = 100_000;

    private final Map<String, Integer> vocab;
    private final String[] tokens;
    private final Map<String, Integer> mergeRanks;
    private final boolean ignoreMerges;
    private final Integer unknownId;
    private final Map<String, Integer> added;
    private final boolean[] isAdded;
    private final Pattern addedPattern;
    private final Pattern split;
    private final boolean addPrefixSpace;
    private final Normalizer.Form normalization;
    private final SpecialTokens specialTokens;
    private final Map<String, int[]> cache = new ConcurrentHashMap<>();

    BpeTokenizer(Map<String, Integer> vocab, Map<String, Integer> mergeRanks, boolean ignoreMerges, Integer unknownId,
            Map<String, Integer> added, Pattern split, boolean addPrefixSpace, Normalizer.Form normalization,
            SpecialTokens specialTokens) {
        this.vocab = Map.copyOf(vocab);
        this.mergeRanks = Map.copyOf(mergeRanks);
        this.ignoreMerges = ignoreMerges;
        this.unknownId = unknownId;
        this.added = Map.copyOf(added);
        this.split = split;
        this.addPrefixSpace = addPrefixSpace;
        this.normalization = normalization;
        this.specialTokens = specialTokens;
        int size = 0;
        for (int id : vocab.values()) {
            size = Math.max(size, id + 1);
        }
        for (int id : added.values()) {
            size = Math.max(size, id + 1);
        }
        this.tokens = new String[size];
        this.isAdded = new boolean[size];
        vocab.forEach((token, id) -> tokens[id] = token);
        added.forEach((token, id) -> {
            tokens[id] = token;
            isAdded[id] = true;
        });
        List<String> longestFirst = new ArrayList<>(added.keySet());
        longestFirst.sort((a, b) -> b.length() - a.length());
        this.addedPattern = longestFirst.isEmpty() ? null
                : Pattern.compile(String.join("|", longestFirst.stream().map(Pattern::quote).toList()));
    }

    /** The id of a token (an added token's content, or a vocabulary entry in the byte-level alphabet), or -1. */
    public int tokenId(String token) {
        Integer id = added.get(token);
        if (id == null) {
            id = vocab.get(token);
        }
        return id == null ? -1 : id;
    }

    public int vocabularySize() {
        return tokens.length;
    }

    @Override
    public int[] encode(String text) {
        IntList out = new IntList();
        if (addedPattern == null) {
            encodeOrdinary(text, out);
            return out.toArray();
        }
        Matcher m = addedPattern.matcher(text);
        int from = 0;
        while (m.find()) {
            encodeOrdinary(text.substring(from, m.start()), out);
            out.add(added.get(m.group()));
            from = m.end();
        }
        encodeOrdinary(text.substring(from), out);
        return out.toArray();
    }

    @Override
    public int[] encodeAddingSpecialTokens(String text) {
        return specialTokens.around(encode(text));
    }

    @Override
    public String decode(int[] ids) {
        StringBuilder text = new StringBuilder();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int id : ids) {
            if (id < 0 || id >= tokens.length || tokens[id] == null) {
                continue;
            }
            if (isAdded[id]) {
                text.append(bytes.toString(StandardCharsets.UTF_8));
                bytes.reset();
                text.append(tokens[id]);
                continue;
            }
            String token = tokens[id];
            for (int i = 0; i < token.length(); i++) {
                int b = ByteLevel.toByte(token.charAt(i));
                if (b >= 0) {
                    bytes.write(b);
                }
            }
        }
        return text.append(bytes.toString(StandardCharsets.UTF_8)).toString();
    }

    private void encodeOrdinary(String text, IntList out) {
        if (text.isEmpty()) {
            return;
        }
        String normalized = normalization == null ? text : Normalizer.normalize(text, normalization);
        if (addPrefixSpace && !normalized.startsWith(" ")) {
            normalized = " " + normalized;
        }
        if (split == null) {
            piece(normalized, out);
            return;
        }
        Matcher m = split.matcher(normalized);
        int from = 0;
        while (m.find()) {
            if (m.start() > from) {
                piece(normalized.substring(from, m.start()), out);
            }
            if (m.end() > m.start()) {
                piece(m.group(), out);
            }
            from = m.end();
        }
        if (from < normalized.length()) {
            piece(normalized.substring(from), out);
        }
    }

    private void piece(String piece, IntList out) {
        String symbols = ByteLevel.encode(piece.getBytes(StandardCharsets.UTF_8));
        int[] ids = cache.get(symbols);
        if (ids == null) {
            ids = bpe(symbols);
            if (cache.size() >= MAX_CACHED_PIECES) {
                cache.clear();
            }
            cache.put(symbols, ids);
        }
        out.addAll(ids);
    }

    private int[] bpe(String word) {
        Integer whole = vocab.get(word);
        if (whole != null && (ignoreMerges || word.length() == 1)) {
            return new int[] {whole};
        }
        List<String> parts = new ArrayList<>(word.length());
        for (int i = 0; i < word.length(); i++) {
            parts.add(String.valueOf(word.charAt(i)));
        }
        while (parts.size() > 1) {
            int best = -1;
            int bestRank = Integer.MAX_VALUE;
            for (int i = 0; i + 1 < parts.size(); i++) {
                Integer rank = mergeRanks.get(pairKey(parts.get(i), parts.get(i + 1)));
                if (rank != null && rank < bestRank) {
                    bestRank = rank;
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            parts.set(best, parts.get(best) + parts.get(best + 1));
            parts.remove(best + 1);
        }
        IntList ids = new IntList();
        for (String part : parts) {
            Integer id = vocab.get(part);
            if (id != null) {
                ids.add(id);
            } else if (unknownId != null) {
                ids.add(unknownId);
            }
        }
        return ids.toArray();
    }

    static String pairKey(String left, String right) {
        return left + '\u0000' + right;
    }

    /** A growable int array: token ids without boxing. */
    private static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = v;
        }

        void addAll(int[] vs) {
            for (int v : vs) {
                add(v);
            }
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
