package io.pdgateway.server.front;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;

/**
 * A JSON array of token ids read as a stream of numbers, not a tree: a long prompt's ids are tens of thousands of them.
 * Used for a completion's prompt given as ids and for an engine's {@code /tokenize} answer.
 */
public final class TokenIdArray {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int[] NONE = new int[0];

    private TokenIdArray() {}

    /** The ids of {@code json}, one array of integers in the int range, or null when it is anything else. */
    public static int[] read(byte[] json) {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            int[] ids = read(parser);
            return ids != null && parser.nextToken() == null ? ids : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The ids of the array whose {@code START_ARRAY} the parser is on, read through its end; null at the first value
     * that is not an integer in the int range (the parser then stands on it).
     */
    public static int[] read(JsonParser parser) throws IOException {
        int[] ids = NONE;
        int count = 0;
        for (JsonToken id = parser.nextToken(); id != JsonToken.END_ARRAY; id = parser.nextToken()) {
            if (id != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT) {
                return null;
            }
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, Math.max(16, count * 2));
            }
            ids[count++] = parser.getIntValue();
        }
        return Arrays.copyOf(ids, count);
    }
}
