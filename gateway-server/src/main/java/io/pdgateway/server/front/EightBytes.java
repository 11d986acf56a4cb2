package io.pdgateway.server.front;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A byte array read eight bytes at a time, for the scans of a body that step over plain ASCII a word at a time
 * ({@link Utf8Check}, {@link JsonStringLength}, {@link JsonStringBytes}, {@link JsonCursor}). The byte order does not
 * matter: every test looks at each byte on its own.
 */
final class EightBytes {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    /** The high bit of every byte. */
    static final long HIGH_BITS = 0x8080808080808080L;

    private EightBytes() {}

    /** The eight bytes from {@code i}; the caller checks that they are there. */
    static long at(byte[] bytes, int i) {
        return (long) LONGS.get(bytes, i);
    }

    /** True when none of the eight bytes has its high bit set: all ASCII. */
    static boolean ascii(long word) {
        return (word & HIGH_BITS) == 0;
    }

    /**
     * The high bit of each byte of {@code word} equal to {@code b} set (a SWAR zero-byte test: a byte above an equal
     * one may be set too, so only "none" is exact).
     */
    static long equalTo(long word, char b) {
        long v = word ^ b * ONES;
        return (v - ONES) & ~v & HIGH_BITS;
    }

    /** {@link #equalTo} the two bytes that end a plain run inside a JSON string: the quote and the backslash. */
    static long quotesOrBackslashes(long word) {
        return equalTo(word, '"') | equalTo(word, '\\');
    }
}
