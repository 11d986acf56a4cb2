package io.pdgateway.server.front;

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

    private JsonStringLength() {}

    /** Eight bytes that are all plain ASCII: no high bit, no quote, no backslash. */
    private static boolean plain(long word) {
        return EightBytes.ascii(word | EightBytes.quotesOrBackslashes(word));
    }

    /** @param quote the index of the string's opening quote in {@code json} */
    static int of(byte[] json, int quote) {
        int units = 0;
        int i = quote + 1;
        while (i < json.length) {
            // A run of plain ASCII, one unit a byte: most of a prompt, so it gets the tightest loop.
            int run = i;
            while (i + Long.BYTES <= json.length && plain(EightBytes.at(json, i))) {
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
