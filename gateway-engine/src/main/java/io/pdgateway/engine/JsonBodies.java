package io.pdgateway.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Reads and writes request and response bodies without losing anything a user sent: key order is kept, floats stay
 * exact decimals ("0.70" stays 0.70) and 64-bit integers never pass through a double.
 */
public final class JsonBodies {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonBodies() {}

    /** The body as a JSON object, or an exception whose message says what is wrong with it. */
    public static ObjectNode parseObject(byte[] body) throws EngineProtocolException {
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new EngineProtocolException("invalid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new EngineProtocolException("unreadable JSON: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw new EngineProtocolException("expected a JSON object");
        }
        return (ObjectNode) node;
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
