package io.pdgateway.server.front;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The length in UTF-16 code units (Java chars) of a JSON string, counted over its UTF-8 bytes as sent: what the
 * parser's text would measure, without decoding the text into chars. A 200 KB prompt is counted in one pass over its
 * bytes instead of being decoded into a 400 KB char buffer only to be measured.
 *
 * <p>Validation is not its job: the body is valid UTF-8 ({@link Utf8Check}) and the parser checks every string's
 * escapes and control characters as it skips it. On a string the parser will refuse, the count is meaningless.
 */
final class JsonStringLength {
    /** ASCII bytes that stand for themselves inside a string: everything but the quote, the backslash and non-ASCII. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int b = 0; b < 0x80; b++) {
            PLAIN[b] = b != '"' && b != '\\';
        }
    }

    /** Eight bytes at a time, in any byte order: each byte is tested on its own. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = '"' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;

    private JsonStringLength() {}

    /** Eight bytes that are all plain ASCII: no high bit, no quote, no backslash (SWAR zero-byte tests). */
    private static boolean plain(long bytes) {
        return ((bytes | hasZeroByte(bytes ^ QUOTES) | hasZeroByte(bytes ^ BACKSLASHES)) & HIGH_BITS) == 0;
    }

    /** The high bit of each byte of {@code v} that is zero is set (bytes above a zero one may be set too). */
    private static long hasZeroByte(long v) {
        return (v - ONES) & ~v & HIGH_BITS;
    }

    /** @param quote the index of the string's opening quote in {@code json} */
    static int of(byte[] json, int quote) {
        int units = 0;
        int i = quote + 1;
        while (i < json.length) {
            // A run of plain ASCII, one unit a byte: most of a prompt, so it gets the tightest loop.
            int run = i;
            while (i + Long.BYTES <= json.length && plain((long) LONGS.get(json, i))) {
                i += Long.BYTES;
            }
            while (i < json.length && PLAIN[json[i] & 0xFF]) {
                i++;
            }
            units += i - run;
            if (i == json.length) {
                break;
            }
            byte b = json[i];
            if (b == '"') {
                return units;
            }
            if (b == '\\') {
                // Every escape is one code unit: \n, \", \\ ... and each \\uXXXX (a surrogate pair is two escapes).
                units++;
                i += i + 1 < json.length && json[i + 1] == 'u' ? 6 : 2;
                continue;
            }
            if ((b & 0xC0) != 0x80) {
                // A character's first byte (continuation bytes add nothing): four-byte characters are two units.
                units += (b & 0xF8) == 0xF0 ? 2 : 1;
            }
            i++;
        }
        return units; // unterminated: the parser refuses the body
    }
}
