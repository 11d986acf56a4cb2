package io.pdgateway.engine;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.json.JsonFaults;
import java.io.IOException;

/**
 * Reads and writes request and response bodies without losing anything a user sent: key order is kept, floats stay
 * exact decimals ("0.70" stays 0.70) and 64-bit integers never pass through a double.
 */
public final class JsonBodies {
    /**
     * The deepest nesting a body may have. Tool and response-format JSON schemas nest a few dozen levels at most, so
     * 128 leaves them room, while a hostile body is refused by the parser before it builds anything, and every
     * recursive walk over a tree (deep copies, serialising) stays shallow.
     */
    public static final int MAX_NESTING_DEPTH = 128;
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                    .build())
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonBodies() {}

    /** The body as a JSON object, or an exception whose message says what is wrong with it. */
    public static ObjectNode parseObject(byte[] body) throws EngineProtocolException {
        JsonNode node = parse(body);
        if (!node.isObject()) {
            throw new EngineProtocolException("expected a JSON object");
        }
        return (ObjectNode) node;
    }

    /**
     * Any JSON value (a missing node for empty input), or an exception whose message says what is wrong with it.
     * Nothing else escapes: hostile input must end as a refusal, never as an exception nobody answers.
     */
    public static JsonNode parse(byte[] body) throws EngineProtocolException {
        try {
            JsonNode node = MAPPER.readTree(body);
            return node == null ? MissingNode.getInstance() : node;
        } catch (JsonProcessingException e) {
            throw refusal(e);
        } catch (IOException e) {
            throw new EngineProtocolException("unreadable JSON");
        } catch (NumberFormatException e) {
            throw invalidNumber();
        }
    }

    /**
     * The refusal of a float that cannot be read exactly: floats are read as exact BigDecimals, and one that cannot be
     * (an exponent beyond an int) fails outside Jackson's own exception types, with a text that names a Java class.
     */
    public static EngineProtocolException invalidNumber() {
        return new EngineProtocolException("invalid JSON number: its exponent or its digits are beyond what can be "
                + "read exactly");
    }

    /** The refusal of a body with more after its JSON value, in the words {@link #refusal} gives the tree parser's. */
    public static EngineProtocolException trailingContent(JsonLocation location) {
        return new EngineProtocolException("invalid JSON: more than one JSON value in the body"
                + JsonFaults.where(location));
    }

    /**
     * What the client is told about JSON the parser refused: what is wrong and where, in the request's terms
     * ({@link JsonFaults}), the body's own limits and a second value after the first named as such.
     */
    public static EngineProtocolException refusal(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return new EngineProtocolException("JSON beyond the accepted limits (at most " + MAX_NESTING_DEPTH
                    + " levels of nesting)" + JsonFaults.where(e.getLocation()));
        }
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (original.startsWith("Trailing token")) {
            return trailingContent(e.getLocation());
        }
        return new EngineProtocolException(JsonFaults.describe(e));
    }

    /** A JSON value's kind as a client would name it: object, array, string, number, boolean, null. */
    public static String kind(JsonNode node) {
        return node == null ? "missing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    public static byte[] write(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
