package io.pdgateway.core.tokenize;

import java.util.Arrays;

/**
 * GPT-2's byte-level alphabet, which Hugging Face's ByteLevel pre-tokenizer and decoder use: every byte maps to one
 * printable character (printable Latin-1 bytes to themselves, the rest to U+0100 upwards), so BPE works on text.
 */
final class ByteLevel {
    private static final char[] BYTE_TO_CHAR = new char[256];
    private static final int[] CHAR_TO_BYTE = new int[512];

    static {
        Arrays.fill(CHAR_TO_BYTE, -1);
        int next = 256;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = printable ? (char) b : (char) next++;
            BYTE_TO_CHAR[b] = c;
            CHAR_TO_BYTE[c] = b;
        }
    }

    private ByteLevel() {}

    static String encode(byte[] bytes) {
        char[] out = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = BYTE_TO_CHAR[bytes[i] & 0xff];
        }
        return new String(out);
    }

    /** The byte of a byte-level character, or -1 for a character outside the alphabet. */
    static int toByte(char c) {
        return c < CHAR_TO_BYTE.length ? CHAR_TO_BYTE[c] : -1;
    }
}
