package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.server.metrics.ExpositionLint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Client input never creates metric series (issue 17, finding 1; design.md §7): 1,000 random model names, 1,000
 * requests with random header values (request id, config profile, session key, debug flag, trace context, user
 * agent) and 1,000 random routing-strategy values leave the set of series on /metrics exactly as it was (the JVM's and
 * the process's own series aside, which move with garbage collection); and no error answer quotes more than a bounded
 * slice of a client's value, whether it came in the model name, a header, the path or the JSON.
 */
class ClientInputSeriesIT {
    private static final String CHAT = "/v1/chat/completions";
    /** Requests per kind of client-chosen value. */
    private static final int REQUESTS = 1_000;
    /** Requests in flight at once from the test client. */
    private static final int CONCURRENCY = 32;
    /** No error body needs more than this, however long the value it complains about. */
    private static final int MAX_ERROR_BODY_BYTES = 1_024;
    @AutoClose
    private TestCluster cluster;

    @Test
    void thousandsOfRandomModelsHeadersAndSessionKeys_seriesUnchanged() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());
        SplittableRandom random = new SplittableRandom(17);
        // One request of each kind first, so the series they legitimately create (model="unknown", the 400 for a bad
        // strategy, the served model) exist before the baseline is taken.
        sendAll(1, i -> unknownModel(random));
        sendAll(1, i -> randomHeaders(random));
        sendAll(1, i -> randomStrategy(random));
        cluster.awaitIdleScrapes("standard-0"); // the pod's scraped figures have series from its first scrape on
        Set<String> before = series();

        List<Integer> unknown = sendAll(REQUESTS, i -> unknownModel(random));
        List<Integer> served = sendAll(REQUESTS, i -> randomHeaders(random));
        List<Integer> refused = sendAll(REQUESTS, i -> randomStrategy(random));

        assertThat(unknown).as("unknown models").containsOnly(404);
        assertThat(served).as("random headers, served model").containsOnly(200);
        assertThat(refused).as("random routing-strategy values").containsOnly(400);
        Set<String> after = series();
        assertThat(after).as("series created by client input").isEqualTo(before);
        assertThat(cluster.get("/metrics").body())
                .contains("gateway_request_model_fail_total{model=\"unknown\",pod_name=\"\",status=\"model_not_found\","
                        + "status_code=\"404\"} " + (REQUESTS + 1) + ".0")
                .contains("gateway_request_model_success_total{model=\"my-model\",pod_name=\"standard-0\"} "
                        + (REQUESTS + 1) + ".0");
    }

    @Test
    void hugeClientValues_errorBodiesQuoteOnlyASlice() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());
        String huge = "m".repeat(100_000);

        HttpResponse<String> model = cluster.post(CHAT, chat(huge));
        HttpResponse<String> strategy = cluster.post(CHAT, TestCluster.chat("x", 1, false), "routing-strategy",
                "s".repeat(5_000));
        HttpResponse<String> path = cluster.http.send(HttpRequest.newBuilder(cluster.uri("/" + "p".repeat(3_000)))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> postPath = cluster.http.send(HttpRequest.newBuilder(cluster.uri("/" + "q".repeat(3_000)))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> json = cluster.post(CHAT, "{\"model\": " + "t".repeat(100_000) + "}");
        HttpResponse<String> nonString = cluster.post(CHAT, "{\"model\": [\"" + huge + "\"], \"messages\": []}");
        // The PD adapter's refusal of a body it cannot carry names the offending key.
        HttpResponse<String> duplicateKey = cluster.post(CHAT, TestCluster.chat("x", 1, false).replaceFirst("\\{",
                "{\"" + huge + "\": 1, \"" + huge + "\": 2, "), "routing-strategy", "pd");

        assertThat(model.statusCode()).isEqualTo(404);
        assertThat(model.body()).contains("model_not_found").contains("(100000 characters)");
        assertThat(strategy.statusCode()).isEqualTo(400);
        assertThat(path.statusCode()).isEqualTo(404);
        assertThat(postPath.statusCode()).isEqualTo(404);
        assertThat(json.statusCode()).isEqualTo(400);
        assertThat(nonString.statusCode()).isEqualTo(400);
        assertThat(duplicateKey.statusCode()).isEqualTo(400);
        for (HttpResponse<String> response : List.of(model, strategy, path, postPath, json, nonString,
                duplicateKey)) {
            assertThat(response.body().length()).as(response.uri() + " " + response.body().substring(0,
                    Math.min(200, response.body().length()))).isLessThanOrEqualTo(MAX_ERROR_BODY_BYTES);
        }
    }

    @Test
    void twoMegabyteModelNames_metricsDoNotGrow_notEchoedWhole() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());
        sendAll(1, i -> unknownModel(new SplittableRandom(1)));
        cluster.awaitIdleScrapes("standard-0"); // the pod's scraped figures have series from its first scrape on
        Set<String> before = series();
        int sizeBefore = gatewaysOwnSize(cluster.get("/metrics").body());

        List<HttpResponse<String>> answers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String huge = "m" + i + "x".repeat(2 * 1024 * 1024);
            answers.add(cluster.http.send(builder(chat(huge)).build(), HttpResponse.BodyHandlers.ofString()));
        }

        for (HttpResponse<String> answer : answers) {
            assertThat(answer.statusCode()).isEqualTo(404);
            assertThat(answer.body().length()).isLessThanOrEqualTo(MAX_ERROR_BODY_BYTES);
        }
        assertThat(series()).isEqualTo(before);
        // Counter values gain a digit or two; a series per name would add megabytes.
        assertThat(gatewaysOwnSize(cluster.get("/metrics").body())).isLessThan(sizeBefore + 1_024);
    }

    @Test
    void thousandRandomApiKeysAndRoutingHeaders_keysRequired_seriesUnchanged() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of("PD_GATEWAY_API_KEYS", "the-key"));
        SplittableRandom random = new SplittableRandom(23);
        IntFunction<HttpRequest> wrongKey = i -> builder(chat(TestCluster.MODEL))
                .header("Authorization", "Bearer " + token(random, 1 + random.nextInt(64))).build();
        IntFunction<HttpRequest> rightKey = i -> builder(TestCluster.chat("hello", 1, false))
                .header("Authorization", "Bearer the-key")
                .header("x-aibrix-session-key", token(random, 1 + random.nextInt(128)))
                .header("routing-strategy", random.nextBoolean() ? "random" : "session-affinity")
                .header("target-pod", token(random, 12)).header("prefill-target-pod", token(random, 12))
                .header("x-pd-debug", random.nextBoolean() ? "true" : token(random, 6)).build();
        sendAll(1, wrongKey);
        sendAll(1, rightKey);
        cluster.awaitIdleScrapes("standard-0"); // the pod's scraped figures have series from its first scrape on
        Set<String> before = series();

        List<Integer> refused = sendAll(REQUESTS, wrongKey);
        List<Integer> served = sendAll(REQUESTS, rightKey);

        assertThat(refused).containsOnly(401);
        assertThat(served).containsOnly(200);
        assertThat(series()).isEqualTo(before);
        assertThat(cluster.get("/metrics").body())
                .contains("pd_gateway_rejected_requests_total{reason=\"unauthorized\"} " + (REQUESTS + 1) + ".0");
    }

    /** Characters of /metrics without the JVM's and the process's own lines, which garbage collection grows. */
    private static int gatewaysOwnSize(String metrics) {
        return metrics.lines().filter(line -> !line.matches("^(# (HELP|TYPE) )?(jvm|process|system)_.*"))
                .mapToInt(line -> line.length() + 1).sum();
    }

    /** The series on /metrics, the JVM's and the process's own left out: garbage collection may add some. */
    private Set<String> series() throws Exception {
        ExpositionLint lint = ExpositionLint.check(cluster.get("/metrics").body());
        return lint.seriesKeys().stream()
                .filter(key -> !key.startsWith("jvm_") && !key.startsWith("process_") && !key.startsWith("system_"))
                .collect(Collectors.toSet());
    }

    private HttpRequest unknownModel(SplittableRandom random) {
        return request(chat("model-" + token(random, 1 + random.nextInt(64))));
    }

    private HttpRequest randomHeaders(SplittableRandom random) {
        return builder(TestCluster.chat("hello", 1, false))
                .header("x-request-id", token(random, 1 + random.nextInt(64)))
                .header("config-profile", token(random, 1 + random.nextInt(32)))
                .header("x-aibrix-session-key", token(random, 1 + random.nextInt(128)))
                .header("x-pd-debug", token(random, 4))
                .header("traceparent", "00-" + hex(random, 32) + "-" + hex(random, 16) + "-01")
                .header("User-Agent", "agent/" + token(random, 12))
                .build();
    }

    private HttpRequest randomStrategy(SplittableRandom random) {
        return builder(TestCluster.chat("hello", 1, false))
                .header("routing-strategy", "strategy-" + token(random, 1 + random.nextInt(32))).build();
    }

    private HttpRequest request(String body) {
        return builder(body).build();
    }

    private HttpRequest.Builder builder(String body) {
        URI uri = cluster.uri(CHAT);
        return HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_1_1).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static String chat(String model) {
        return TestCluster.chat("hello", 1, false).replace("\"" + TestCluster.MODEL + "\"", "\"" + model + "\"");
    }

    private static String token(SplittableRandom random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }

    private static String hex(SplittableRandom random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(Character.forDigit(random.nextInt(16), 16));
        }
        return s.toString();
    }

    /** Sends {@code count} requests, {@link #CONCURRENCY} at a time; their statuses in order. */
    private List<Integer> sendAll(int count, IntFunction<HttpRequest> requests) {
        Semaphore permits = new Semaphore(CONCURRENCY);
        List<CompletableFuture<Integer>> statuses = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            HttpRequest request = requests.apply(i);
            permits.acquireUninterruptibly();
            statuses.add(cluster.http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .thenApply(HttpResponse::statusCode).whenComplete((status, error) -> permits.release()));
        }
        return statuses.stream().map(CompletableFuture::join).toList();
    }
}
