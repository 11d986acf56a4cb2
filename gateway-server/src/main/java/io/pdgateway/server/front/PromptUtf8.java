package io.pdgateway.server.front;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A prompt's text as UTF-8 bytes, what the character tokenizer reads (four bytes to a token): built straight from the
 * body's bytes ({@link JsonStringBytes}), so a long prompt is not decoded into chars and encoded back. Exactly
 * {@code OpenAiRequest.promptText().getBytes(UTF_8)}, a lone surrogate escape included (it encodes as {@code ?}).
 */
public final class PromptUtf8 {
    private byte[] bytes;
    private int length;

    PromptUtf8(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    /** The buffer: only its first {@link #length} bytes are the prompt. Read only. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }

    void append(byte b) {
        room(1);
        bytes[length++] = b;
    }

    void append(byte[] from, int start, int count) {
        room(count);
        System.arraycopy(from, start, bytes, length, count);
        length += count;
    }

    void append(String text) {
        byte[] encoded = text.getBytes(StandardCharsets.UTF_8);
        append(encoded, 0, encoded.length);
    }

    /** A code point (not a surrogate) in UTF-8: one to four bytes. */
    void appendCodePoint(int c) {
        room(4);
        if (c < 0x80) {
            bytes[length++] = (byte) c;
        } else if (c < 0x800) {
            bytes[length++] = (byte) (0xC0 | c >> 6);
            bytes[length++] = (byte) (0x80 | c & 0x3F);
        } else if (c < 0x10000) {
            bytes[length++] = (byte) (0xE0 | c >> 12);
            bytes[length++] = (byte) (0x80 | c >> 6 & 0x3F);
            bytes[length++] = (byte) (0x80 | c & 0x3F);
        } else {
            bytes[length++] = (byte) (0xF0 | c >> 18);
            bytes[length++] = (byte) (0x80 | c >> 12 & 0x3F);
            bytes[length++] = (byte) (0x80 | c >> 6 & 0x3F);
            bytes[length++] = (byte) (0x80 | c & 0x3F);
        }
    }

    private void room(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
