package io.pdgateway.routingsim.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The max-rate search as JSON: per policy its answer, the gap it closes, and every probe's rate and attainment. */
public final class MaxRateJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MaxRateJson() {}

    public static String write(String heading, List<MaxRateSearch.Result> results) {
        ObjectNode root = JSON.createObjectNode();
        root.put("heading", heading.strip());
        ArrayNode policies = root.putArray("policies");
        for (MaxRateSearch.Result result : results) {
            ObjectNode policy = policies.addObject();
            policy.put("name", result.policy().name());
            policy.put("maxRequestsPerSecond", result.maxRequestsPerSecond());
            policy.put("gapClosed", MaxRateTable.gapClosed(result, results));
            if (result.best() != null) {
                policy.put("rateScale", result.best().rateScale());
                policy.putPOJO("atMaxRate", result.best().report());
            }
            ArrayNode probes = policy.putArray("probes");
            for (MaxRateSearch.Probe probe : result.probes()) {
                probes.addObject().put("rateScale", probe.rateScale()).put("requestsPerSecond", probe.requestsPerSecond())
                        .put("attainment", probe.report().attainment()).put("prefixHitRate", probe.report().prefixHitRate());
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write the max-rate report as JSON", e);
        }
    }
}
