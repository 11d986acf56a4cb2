package io.pdgateway.server.front;

/**
 * The UTF-8 bytes of a JSON string's value, decoded from the string as sent: what the parser's text encodes to
 * ({@code getBytes(UTF_8)}), without building the text. Runs without an escape, most of a prompt, are copied as they
 * are: the body is valid UTF-8, so its bytes are the text's.
 *
 * <p>Validation is not its job: the front's scan checked the body's UTF-8 and every string's escapes and control
 * characters ({@link FastBodyScan}, or {@link Utf8Check} and the parser). On a refused string the bytes are
 * meaningless.
 */
final class JsonStringBytes {
    /** What a lone surrogate encodes to in Java's UTF-8 encoder (its replacement byte). */
    private static final byte REPLACEMENT = '?';

    private JsonStringBytes() {}

    /** @param quote the index of the string's opening quote in {@code json} */
    static void append(byte[] json, int quote, PromptUtf8 out) {
        int i = quote + 1;
        while (i < json.length) {
            int run = i;
            while (i + Long.BYTES <= json.length && unescaped(EightBytes.at(json, i))) {
                i += Long.BYTES;
            }
            while (i < json.length && json[i] != '"' && json[i] != '\\') {
                i++;
            }
            out.append(json, run, i - run);
            if (i + 1 >= json.length || json[i] == '"') {
                return; // the closing quote (or, on a body the parser refuses, the end)
            }
            byte escaped = json[i + 1];
            if (escaped != 'u') {
                out.append(simple(escaped));
                i += 2;
                continue;
            }
            int unit = hex(json, i + 2);
            i += 6;
            if (Character.isHighSurrogate((char) unit) && i + 6 <= json.length && json[i] == '\\'
                    && json[i + 1] == 'u') {
                int low = hex(json, i + 2);
                if (Character.isLowSurrogate((char) low)) {
                    out.appendCodePoint(Character.toCodePoint((char) unit, (char) low));
                    i += 6;
                    continue;
                }
            }
            if (Character.isSurrogate((char) unit)) {
                out.append(REPLACEMENT);
            } else {
                out.appendCodePoint(unit);
            }
        }
    }

    /** Eight bytes with no quote and no backslash (other bytes, UTF-8 ones included, stand for themselves). */
    private static boolean unescaped(long word) {
        return EightBytes.quotesOrBackslashes(word) == 0;
    }

    /** The byte a two-character escape stands for: \" \\ \/ \b \f \n \r \t. */
    private static byte simple(byte escaped) {
        return switch (escaped) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> escaped; // the quote, the backslash and the slash stand for themselves
        };
    }

    /** The code unit of the four hex digits at {@code from} (the parser has checked they are hex digits). */
    private static int hex(byte[] json, int from) {
        int unit = 0;
        for (int i = from; i < from + 4 && i < json.length; i++) {
            unit = unit << 4 | Character.digit(json[i], 16);
        }
        return unit;
    }
}
