package io.pdgateway.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Future;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Shared helpers of the simulator tests: blocking on futures, HTTP calls, SSE and Prometheus parsing. */
public final class SimTestSupport {

    public static final ObjectMapper JSON = new ObjectMapper();
    /** 100× faster than real time: a 16-token completion takes about a millisecond and a half. */
    public static final double FAST = 0.01;

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private SimTestSupport() {
    }

    public static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("future did not complete: " + e, e);
        }
    }

    public static HttpResponse<String> post(SimPod pod, String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public static HttpResponse<String> post(SimPod pod, String path, String json, String headerName, String headerValue) {
        return send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path))
                .header("content-type", "application/json").header(headerName, headerValue)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public static HttpResponse<String> get(SimPod pod, String path) {
        return send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path)).GET());
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    public static String chat(String model, String content, int maxTokens, boolean stream) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}],"
                + "\"max_tokens\":" + maxTokens + ",\"stream\":" + stream + "}";
    }

    /** The data payloads of an SSE body, in order; asserts the framing ({@code data: ...} events, blank lines). */
    public static List<String> sseData(String body) {
        assertThat(body).endsWith("\n\n");
        List<String> data = new ArrayList<>();
        for (String event : body.split("\n\n")) {
            assertThat(event).startsWith("data: ");
            data.add(event.substring("data: ".length()));
        }
        return data;
    }

    /** Samples of a Prometheus text page: "name{labels}" → value; asserts every line is well formed. */
    public static Map<String, Double> prometheus(String page) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : page.split("\n")) {
            if (line.startsWith("#")) {
                assertThat(line).matches("# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+");
                continue;
            }
            assertThat(line).matches("[a-zA-Z_:][a-zA-Z0-9_:]*\\{[^}]*} [-+0-9.eEInfNa]+");
            int space = line.lastIndexOf(' ');
            String value = line.substring(space + 1);
            samples.put(line.substring(0, space), value.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(value));
        }
        return samples;
    }

    /** The value of a sample whose series name and labels contain every given fragment. */
    public static double sample(Map<String, Double> samples, String name, String... labelFragments) {
        return samples.entrySet().stream()
                .filter(e -> e.getKey().startsWith(name + "{"))
                .filter(e -> java.util.Arrays.stream(labelFragments).allMatch(e.getKey()::contains))
                .mapToDouble(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + name + " with " + List.of(labelFragments)));
    }
}
