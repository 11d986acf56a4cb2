package io.pdgateway.sim;

/**
 * A prompt as the simulator counts it: its token count, the chained hashes of its full KV blocks (the prefix
 * cache key, as vLLM hashes each full block together with its parent's hash) and a digest of the whole prompt
 * (so a decode pod can tell that the KV it fetched belongs to its own prompt).
 *
 * <p>Text is not tokenized: the simulator takes {@value #CHARS_PER_TOKEN} characters as one token, so a block of
 * 16 tokens is 64 characters. Token-id prompts count one token per id. Engines that report the prompt's token ids
 * (TensorRT-LLM's {@code prompt_token_ids}) use {@link #ofTextAsIds}: one pseudo id per four characters, so the same
 * text and its ids are the same prompt (same count, same digest).
 */
public final class PromptTokens {

    /** The usual English-text ratio; the design uses the same bytes/4 estimate for token_load. */
    static final int CHARS_PER_TOKEN = 4;

    /** Llama 3's vocabulary size (the timing profiles' model): pseudo ids fall in [0, VOCAB). */
    public static final int VOCAB = 128_256;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final int count;
    private final long[] blockHashes;
    private final long digest;
    private final long[] ids;

    private PromptTokens(int count, long[] blockHashes, long digest, long[] ids) {
        this.count = count;
        this.blockHashes = blockHashes;
        this.digest = digest;
        this.ids = ids;
    }

    public static PromptTokens ofText(String text, int blockSize) {
        int count = Math.max(1, text.length() / CHARS_PER_TOKEN);
        int blockChars = blockSize * CHARS_PER_TOKEN;
        long[] hashes = new long[text.length() / CHARS_PER_TOKEN / blockSize];
        long parent = FNV_OFFSET;
        for (int block = 0; block < hashes.length; block++) {
            long h = mix(FNV_OFFSET, parent);
            for (int i = block * blockChars, end = i + blockChars; i < end; i++) {
                h = mix(h, text.charAt(i));
            }
            hashes[block] = h;
            parent = h;
        }
        long digest = FNV_OFFSET;
        for (int i = 0; i < text.length(); i++) {
            digest = mix(digest, text.charAt(i));
        }
        return new PromptTokens(count, hashes, mix(digest, count), null);
    }

    /** The text as pseudo token ids (see the class comment), the way a tokenizing engine sees it. */
    public static PromptTokens ofTextAsIds(String text, int blockSize) {
        int count = Math.max(1, text.length() / CHARS_PER_TOKEN);
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            long h = FNV_OFFSET;
            for (int c = i * CHARS_PER_TOKEN, end = Math.min(text.length(), c + CHARS_PER_TOKEN); c < end; c++) {
                h = mix(h, text.charAt(c));
            }
            ids[i] = Math.floorMod(h, (long) VOCAB);
        }
        return ofIds(ids, blockSize);
    }

    public static PromptTokens ofIds(long[] ids, int blockSize) {
        long[] hashes = new long[ids.length / blockSize];
        long parent = FNV_OFFSET;
        for (int block = 0; block < hashes.length; block++) {
            long h = mix(FNV_OFFSET, parent);
            for (int i = block * blockSize, end = i + blockSize; i < end; i++) {
                h = mix(h, ids[i]);
            }
            hashes[block] = h;
            parent = h;
        }
        long digest = FNV_OFFSET;
        for (long id : ids) {
            digest = mix(digest, id);
        }
        return new PromptTokens(Math.max(1, ids.length), hashes, mix(digest, ids.length), ids.clone());
    }

    public int count() {
        return count;
    }

    /** The token ids, or null for a prompt counted from its text. */
    public long[] ids() {
        return ids == null ? null : ids.clone();
    }

    /** The token ids without a copy, or null (the prefix cache reads them for its events). */
    long[] idsView() {
        return ids;
    }

    int fullBlocks() {
        return blockHashes.length;
    }

    long blockHash(int index) {
        return blockHashes[index];
    }

    /** Identifies the prompt; equal prompts have equal digests. Rendered as 16 hex digits on the wire. */
    public String digest() {
        return String.format("%016x", digest);
    }

    /** Seeds the generated text so that the same prompt gets the same completion on every pod. */
    long digestBits() {
        return digest;
    }

    private static long mix(long hash, long value) {
        long h = hash;
        for (int shift = 0; shift < 64; shift += 8) {
            h ^= (value >>> shift) & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }
}
