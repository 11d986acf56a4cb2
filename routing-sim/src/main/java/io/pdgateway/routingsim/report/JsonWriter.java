package io.pdgateway.routingsim.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The whole report as JSON (NaN, meaning "no value", is written as the string "NaN"). */
public final class JsonWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonWriter() {}

    public static String write(SimulationReport report) {
        try {
            return JSON.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the report as JSON", e);
        }
    }
}
