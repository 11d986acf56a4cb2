package io.pdgateway.routingsim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pdgateway.sim.TimingProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a cluster shape from YAML (see routing-sim/clusters/*.yaml for commented examples). Fails fast with the
 * offending key: a misspelt key would otherwise silently simulate a different cluster.
 */
public final class ClusterShapeReader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> TOP = Set.of("model", "timing", "gateway", "gatewayReplicas", "rolesets",
            "standard");
    private static final Set<String> TIMING = Set.of("profile", "kvCapacityTokens", "maxNumSeqs", "transfer");
    private static final Set<String> TRANSFER = Set.of("setupMillis", "bytesPerSecond");
    private static final Set<String> ROLESET = Set.of("name", "replicas", "prefill", "decode", "bucket", "routingConfig");
    private static final Set<String> STANDARD = Set.of("name", "replicas", "bucket", "routingConfig");
    /** design.md §2: the demo and the examples serve "my-model". */
    static final String DEFAULT_MODEL = "my-model";

    private ClusterShapeReader() {}

    public static ClusterShape read(Path file) throws IOException {
        return parse(Files.readString(file), file.toString());
    }

    public static ClusterShape parse(String yaml, String source) throws IOException {
        JsonNode root = YAML.readTree(yaml);
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(source + ": a cluster shape is a YAML mapping");
        }
        known(root, TOP, source);
        String model = root.path("model").asText(DEFAULT_MODEL);
        TimingProfile timing = timing(root.path("timing"), source);
        Map<String, String> env = new LinkedHashMap<>();
        root.path("gateway").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        List<PodGroup> groups = new ArrayList<>();
        for (JsonNode node : root.path("rolesets")) {
            known(node, ROLESET, source + " rolesets");
            groups.add(group(node, node.path("prefill").asInt(1), node.path("decode").asInt(1), source));
            if (groups.get(groups.size() - 1).standard()) {
                throw new IllegalArgumentException(source + ": roleset group " + node.path("name").asText()
                        + " needs at least one prefill or decode pod");
            }
        }
        for (JsonNode node : root.path("standard")) {
            known(node, STANDARD, source + " standard");
            groups.add(group(node, 0, 0, source));
        }
        return new ClusterShape(model, timing, env, groups, source, root.path("gatewayReplicas").asInt(1));
    }

    private static TimingProfile timing(JsonNode node, String source) {
        if (node.isMissingNode() || node.isNull()) {
            return TimingProfile.llama3_8b_h100();
        }
        if (node.isTextual()) {
            return TimingProfile.byName(node.asText());
        }
        known(node, TIMING, source + " timing");
        TimingProfile timing = TimingProfile.byName(node.path("profile").asText(TimingProfile.LLAMA3_8B_H100));
        if (node.has("kvCapacityTokens")) {
            timing = timing.withKvCapacityTokens(node.get("kvCapacityTokens").asInt());
        }
        if (node.has("maxNumSeqs")) {
            timing = timing.withMaxNumSeqs(node.get("maxNumSeqs").asInt());
        }
        JsonNode transfer = node.path("transfer");
        if (transfer.isObject()) {
            known(transfer, TRANSFER, source + " timing.transfer");
            timing = timing.withTransfer(transfer.path("setupMillis").asDouble(timing.transferSetupMillis()),
                    transfer.path("bytesPerSecond").asDouble(timing.transferBytesPerSecond()));
        }
        return timing;
    }

    private static PodGroup group(JsonNode node, int prefill, int decode, String source) {
        int min = -1;
        int max = -1;
        JsonNode bucket = node.path("bucket");
        if (!bucket.isMissingNode()) {
            if (!bucket.isArray() || bucket.size() != 2) {
                throw new IllegalArgumentException(source + ": bucket of " + node.path("name").asText()
                        + " must be [min, max] (max 0 = unlimited)");
            }
            min = bucket.get(0).asInt();
            max = bucket.get(1).asInt();
        }
        Map<String, Object> routingConfig = new LinkedHashMap<>();
        JsonNode rc = node.path("routingConfig");
        if (rc.isObject()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> raw = YAML.convertValue(rc, LinkedHashMap.class);
            routingConfig.putAll(raw);
        }
        return new PodGroup(node.path("name").asText(), node.path("replicas").asInt(1), prefill, decode, min, max,
                routingConfig);
    }

    private static void known(JsonNode node, Set<String> keys, String where) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!keys.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown key '" + key + "'; known: " + keys);
            }
        }
    }
}
