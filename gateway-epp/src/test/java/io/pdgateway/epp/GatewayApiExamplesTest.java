package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * deploy/gateway-api/inference-pool.yaml against published schemas: the InferencePool against the openAPIV3Schema of
 * the Inference Extension's CRD (vendored, see src/test/resources/crds/README.md), with unknown fields rejected as the
 * API server's strict field validation rejects them; the HTTPRoute and the Service through fabric8's Gateway API and
 * core models (generated from the published types), with no field left over. The HTTPRoute sends to the pool, and the
 * pool's picker is the Service's gRPC port.
 */
class GatewayApiExamplesTest {
    private static final Path EXAMPLE = Path.of("..", "deploy", "gateway-api", "inference-pool.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static List<JsonNode> documents(String yaml) throws Exception {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
            Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class);
            it.forEachRemaining(docs::add);
        }
        return docs;
    }

    private static JsonNode ofKind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + EXAMPLE));
    }

    /** The v1 openAPIV3Schema of the vendored CRD, strict: an object with declared properties admits no others. */
    private static Validator inferencePoolSchema() throws Exception {
        JsonNode crd;
        try (InputStream in = GatewayApiExamplesTest.class.getResourceAsStream(
                "/crds/inference.networking.k8s.io_inferencepools.yaml")) {
            crd = YAML.readTree(in);
        }
        JsonNode v1 = null;
        for (JsonNode version : crd.at("/spec/versions")) {
            if ("v1".equals(version.path("name").asText())) {
                v1 = version.at("/schema/openAPIV3Schema");
            }
        }
        assertThat(v1).as("v1 schema in the CRD").isNotNull();
        strict(v1);
        JsonObject schema = new JsonObject(new ObjectMapper().writeValueAsString(v1));
        return Validator.create(JsonSchema.of(schema),
                new JsonSchemaOptions().setDraft(Draft.DRAFT7).setBaseUri("https://pd-gateway.invalid/"));
    }

    private static void strict(JsonNode schema) {
        if (schema instanceof ObjectNode object) {
            if (object.has("properties") && !object.has("additionalProperties")
                    && !object.has("x-kubernetes-preserve-unknown-fields")) {
                object.put("additionalProperties", false);
            }
            object.elements().forEachRemaining(GatewayApiExamplesTest::strict);
        } else if (schema != null && schema.isArray()) {
            schema.elements().forEachRemaining(GatewayApiExamplesTest::strict);
        }
    }

    private static OutputUnit validate(Validator validator, JsonNode doc) throws Exception {
        return validator.validate(new JsonObject(new ObjectMapper().writeValueAsString(doc)));
    }

    @Test
    void inferencePool_validAgainstTheCrdSchema() throws Exception {
        JsonNode pool = ofKind(documents(Files.readString(EXAMPLE)), "InferencePool");
        OutputUnit result = validate(inferencePoolSchema(), pool);
        assertThat(result.getValid()).as(String.valueOf(result.getErrors())).isTrue();
    }

    @Test
    void inferencePoolWithAnUnknownField_invalid() throws Exception {
        ObjectNode pool = (ObjectNode) ofKind(documents(Files.readString(EXAMPLE)), "InferencePool");
        ((ObjectNode) pool.at("/spec")).putObject("endpointPicker").put("name", "x");
        assertThat(validate(inferencePoolSchema(), pool).getValid()).isFalse();
    }

    @Test
    void inferencePoolWithoutPorts_invalid() throws Exception {
        ObjectNode pool = (ObjectNode) ofKind(documents(Files.readString(EXAMPLE)), "InferencePool");
        ((ObjectNode) pool.at("/spec")).putArray("targetPorts");
        assertThat(validate(inferencePoolSchema(), pool).getValid()).isFalse();
    }

    @Test
    void httpRouteAndService_fullyReadByThePublishedModels_andPointAtThePoolAndThePicker() throws Exception {
        List<JsonNode> docs = documents(Files.readString(EXAMPLE));
        JsonNode pool = ofKind(docs, "InferencePool");
        HTTPRoute route = Serialization.unmarshal(YAML.writeValueAsString(ofKind(docs, "HTTPRoute")), HTTPRoute.class);
        Service service = Serialization.unmarshal(YAML.writeValueAsString(ofKind(docs, "Service")), Service.class);
        assertNoLeftovers(route, "HTTPRoute");
        assertNoLeftovers(service, "Service");

        var backend = route.getSpec().getRules().get(0).getBackendRefs().get(0);
        assertThat(backend.getGroup()).isEqualTo("inference.networking.k8s.io");
        assertThat(backend.getKind()).isEqualTo("InferencePool");
        assertThat(backend.getName()).isEqualTo(pool.at("/metadata/name").asText());
        assertThat(pool.at("/spec/extensionRef/name").asText()).isEqualTo(service.getMetadata().getName());
        assertThat(service.getSpec().getPorts().get(0).getPort())
                .isEqualTo(pool.at("/spec/extensionRef/portNumber").asInt()).isEqualTo(EppCommand.DEFAULT_EXT_PROC_PORT);
    }

    @Test
    void httpRouteWithAMisspeltField_leavesALeftover() throws Exception {
        String yaml = Files.readString(EXAMPLE).replace("backendRefs:", "backendRef:");
        HTTPRoute route = Serialization.unmarshal(YAML.writeValueAsString(ofKind(documents(yaml), "HTTPRoute")),
                HTTPRoute.class);
        assertThat(leftovers(route, "HTTPRoute")).isNotEmpty();
    }

    private static void assertNoLeftovers(Object model, String path) throws Exception {
        assertThat(leftovers(model, path)).as("fields the published model does not know").isEmpty();
    }

    /** Every field a fabric8 model object kept as an "additional property", i.e. did not recognise, by path. */
    private static List<String> leftovers(Object model, String path) throws Exception {
        List<String> found = new ArrayList<>();
        if (model == null || !model.getClass().getName().startsWith("io.fabric8.")) {
            return found;
        }
        for (Method getter : model.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value = getter.invoke(model);
            if (getter.getName().equals("getAdditionalProperties")) {
                ((Map<?, ?>) value).keySet().forEach(k -> found.add(path + "." + k));
            } else if (value instanceof Collection<?> items) {
                for (Object item : items) {
                    found.addAll(leftovers(item, path + "." + getter.getName().substring(3)));
                }
            } else {
                found.addAll(leftovers(value, path + "." + getter.getName().substring(3)));
            }
        }
        return found;
    }
}
