package io.pdgateway.server.front;

import com.fasterxml.jackson.core.JsonToken;

/**
 * A position in a body that {@link FastBodyScan} reads: steps over JSON's tokens checking them as the parser does
 * (UTF-8 inside strings, no unescaped control character, JSON's escapes only, the number grammar, bounded nesting), and
 * gives up ({@link GiveUp}) at anything invalid or unusual, for the parser to word. Reading past the end throws
 * {@link ArrayIndexOutOfBoundsException}: a body cut short, given up on too.
 */
final class JsonCursor {
    /** Shallower than {@code JsonBodies.MAX_NESTING_DEPTH}, so the parser's bound is never the one reached here. */
    private static final int MAX_DEPTH = 64;
    /** Far under the parser's number length bound; exponents short enough for an exact decimal. */
    private static final int MAX_NUMBER_BYTES = 64;
    private static final int MAX_EXPONENT_DIGITS = 6;
    /** Far under the parser's name length bound. */
    static final int MAX_NAME_UNITS = 1024;
    private static final long SPACES = 0x2020202020202020L;
    static final GiveUp GIVE_UP = new GiveUp();

    private final byte[] b;
    private int i;
    /** Of the last string stepped over: whether it had an escape, and its length in UTF-16 code units. */
    private boolean escaped;
    private int units;

    JsonCursor(byte[] body) {
        this.b = body;
    }

    /** Not thrown to report anything: it unwinds the walk when the body needs the parser. One instance, no stack. */
    static final class GiveUp extends RuntimeException {
        GiveUp() {
            super(null, null, false, false);
        }
    }

    /** The byte here. */
    byte peek() {
        return b[i];
    }

    /** Where the cursor is in the body. */
    int position() {
        return i;
    }

    boolean atEnd() {
        return i == b.length;
    }

    /** Whether the last string stepped over had an escape. */
    boolean escaped() {
        return escaped;
    }

    /** The last string's length in UTF-16 code units, as the parser's text would measure it. */
    int units() {
        return units;
    }

    /** Steps over any value at nesting {@code depth} (its container's); returns its kind as the parser names it. */
    JsonToken value(int depth) {
        byte c = b[i];
        switch (c) {
            case '"' -> {
                string();
                return JsonToken.VALUE_STRING;
            }
            case '{' -> {
                container(depth + 1, '}', true);
                return JsonToken.START_OBJECT;
            }
            case '[' -> {
                container(depth + 1, ']', false);
                return JsonToken.START_ARRAY;
            }
            case 't' -> {
                literal("true");
                return JsonToken.VALUE_TRUE;
            }
            case 'f' -> {
                literal("false");
                return JsonToken.VALUE_FALSE;
            }
            case 'n' -> {
                literal("null");
                return JsonToken.VALUE_NULL;
            }
            default -> {
                return number();
            }
        }
    }

    private void container(int depth, char close, boolean object) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        i++;
        blanks();
        if (closing(close)) {
            return;
        }
        do {
            if (object) {
                string();
                if (units > MAX_NAME_UNITS) {
                    throw GIVE_UP;
                }
                blanks();
                expect(':');
                blanks();
            }
            value(depth);
        } while (more(close));
    }

    /** At {@code close}: steps over it and says so. */
    boolean closing(char close) {
        if (b[i] != close) {
            return false;
        }
        i++;
        return true;
    }

    /**
     * After a member or an element: true at a comma (stepped over, and the blanks after it), false at {@code close}
     * (stepped over); anything else gives up.
     */
    boolean more(char close) {
        blanks();
        if (closing(close)) {
            return false;
        }
        expect(',');
        blanks();
        return true;
    }

    /**
     * Steps over the string at {@code i} (its opening quote), checking it as the parser does: UTF-8, no control
     * character unescaped, only JSON's escapes. Notes whether it had an escape and its length in UTF-16 units.
     */
    void string() {
        if (b[i] != '"') {
            throw GIVE_UP;
        }
        i++;
        escaped = false;
        int count = 0;
        while (true) {
            int run = i;
            while (i + Long.BYTES <= b.length && plain(EightBytes.at(b, i))) {
                i += Long.BYTES;
            }
            count += i - run;
            byte c = b[i];
            if (c == '"') {
                i++;
                units = count;
                return;
            }
            if (c == '\\') {
                escape();
                count++;
            } else if (c < 0) {
                int length = Utf8Check.sequenceLength(b, i, b.length);
                if (length < 0) {
                    throw GIVE_UP;
                }
                count += length == 4 ? 2 : 1; // a character past U+FFFF is a surrogate pair
                i += length;
            } else if (c < 0x20) {
                throw GIVE_UP;
            } else {
                count++;
                i++;
            }
        }
    }

    /** Eight bytes of plain ASCII text: no quote, no backslash, no control character, no high bit. */
    private static boolean plain(long word) {
        long controls = (word - SPACES) & ~word; // a byte below 0x20 leaves its high bit set here
        return EightBytes.ascii(word | EightBytes.quotesOrBackslashes(word) | controls);
    }

    private void escape() {
        escaped = true;
        byte e = b[i + 1];
        if (e == 'u') {
            for (int h = i + 2; h < i + 6; h++) {
                if (Character.digit(b[h], 16) < 0) {
                    throw GIVE_UP;
                }
            }
            i += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
            i += 2;
        } else {
            throw GIVE_UP;
        }
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                throw GIVE_UP;
            }
        }
        i += word.length();
        delimiter();
    }

    /** JSON's number grammar, short numbers only; int or float as the parser reads it. */
    private JsonToken number() {
        int start = i;
        if (b[i] == '-') {
            i++;
        }
        if (b[i] == '0') {
            i++;
        } else if (b[i] >= '1' && b[i] <= '9') {
            digits();
        } else {
            throw GIVE_UP;
        }
        boolean fraction = false;
        if (b[i] == '.') {
            fraction = true;
            i++;
            if (digits() == 0) {
                throw GIVE_UP;
            }
        }
        if (b[i] == 'e' || b[i] == 'E') {
            fraction = true;
            i++;
            if (b[i] == '+' || b[i] == '-') {
                i++;
            }
            int exponent = digits();
            if (exponent == 0 || exponent > MAX_EXPONENT_DIGITS) {
                throw GIVE_UP;
            }
        }
        if (i - start > MAX_NUMBER_BYTES) {
            throw GIVE_UP;
        }
        delimiter();
        return fraction ? JsonToken.VALUE_NUMBER_FLOAT : JsonToken.VALUE_NUMBER_INT;
    }

    private int digits() {
        int start = i;
        while (b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i - start;
    }

    /** After a number or literal the parser wants a blank, a comma or a closing bracket. */
    private void delimiter() {
        byte c = b[i];
        if (c != ',' && c != '}' && c != ']' && !blank(c)) {
            throw GIVE_UP;
        }
    }

    void blanks() {
        while (i < b.length && blank(b[i])) {
            i++;
        }
    }

    private static boolean blank(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    void expect(char c) {
        if (b[i] != c) {
            throw GIVE_UP;
        }
        i++;
    }
}
