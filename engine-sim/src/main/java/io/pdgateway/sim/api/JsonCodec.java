package io.pdgateway.sim.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson mapper of the simulator (thread-safe once configured) and its compact writer. */
public final class JsonCodec {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonCodec() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            // A tree of plain nodes always serialises; reaching here is a bug.
            throw new IllegalStateException("cannot serialise " + node.getNodeType(), e);
        }
    }
}
