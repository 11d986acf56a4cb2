package io.pdgateway.server.front;

/**
 * RFC 3629 UTF-8 validity, byte by byte without decoding: the same sequences Java's strict decoder refuses (overlong
 * forms, surrogates, code points past U+10FFFF, truncated or stray continuation bytes). ASCII, nearly every byte of a
 * prompt, is checked eight bytes at a time. The decoder it replaces allocated an 8 KB char buffer per request (issue
 * 16's profile).
 */
final class Utf8Check {
    private Utf8Check() {}

    /** The index of the first byte of the first invalid sequence, or -1 when every byte is valid UTF-8. */
    static int firstInvalid(byte[] bytes) {
        int i = 0;
        int n = bytes.length;
        while (i < n) {
            if (i + Long.BYTES <= n && EightBytes.ascii(EightBytes.at(bytes, i))) {
                i += Long.BYTES; // eight ASCII bytes
                continue;
            }
            int b = bytes[i];
            if (b >= 0) {
                i++;
                continue;
            }
            int length = sequenceLength(bytes, i, n);
            if (length < 0) {
                return i;
            }
            i += length;
        }
        return -1;
    }

    /** The length of the valid multi-byte sequence starting at {@code i}, or -1. */
    static int sequenceLength(byte[] bytes, int i, int n) {
        int lead = bytes[i] & 0xff;
        if (lead >= 0xc2 && lead <= 0xdf) {
            return continuation(bytes, i + 1, n) ? 2 : -1;
        }
        if (lead >= 0xe0 && lead <= 0xef) {
            if (i + 2 >= n) {
                return -1;
            }
            int second = bytes[i + 1] & 0xff;
            // E0 needs A0..BF (no overlong form), ED needs 80..9F (no surrogates).
            int low = lead == 0xe0 ? 0xa0 : 0x80;
            int high = lead == 0xed ? 0x9f : 0xbf;
            return second >= low && second <= high && continuation(bytes, i + 2, n) ? 3 : -1;
        }
        if (lead >= 0xf0 && lead <= 0xf4) {
            if (i + 3 >= n) {
                return -1;
            }
            int second = bytes[i + 1] & 0xff;
            // F0 needs 90..BF (no overlong form), F4 needs 80..8F (nothing past U+10FFFF).
            int low = lead == 0xf0 ? 0x90 : 0x80;
            int high = lead == 0xf4 ? 0x8f : 0xbf;
            return second >= low && second <= high && continuation(bytes, i + 2, n) && continuation(bytes, i + 3, n)
                    ? 4 : -1;
        }
        return -1; // a continuation byte without a lead, an overlong lead (C0, C1), or F5..FF
    }

    private static boolean continuation(byte[] bytes, int i, int n) {
        return i < n && (bytes[i] & 0xc0) == 0x80;
    }
}
