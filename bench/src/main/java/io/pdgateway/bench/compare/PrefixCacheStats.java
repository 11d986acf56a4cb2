package io.pdgateway.bench.compare;

import io.pdgateway.server.scrape.PrometheusText;
import io.pdgateway.sim.SimPod;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How much prompt work the pods' prefix caches saved, read from their vLLM metrics as a user would read them
 * ({@code vllm:prefix_cache_hits_total} over {@code vllm:prefix_cache_queries_total}, both in tokens): the number that
 * explains why one prefill policy beats another on a trace with shared prefixes. {@code bench compare} sums it over a
 * run's pods; {@code routing-sim validate} reads it pod by pod, before and after its replay.
 */
public record PrefixCacheStats(long queriedTokens, long hitTokens) {
    static final String QUERIES = "vllm:prefix_cache_queries_total";
    static final String HITS = "vllm:prefix_cache_hits_total";
    /** A pod that does not answer its metrics within this time is left out. */
    static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(5);

    /** One pod's counters now; fails when the pod does not answer. */
    public static PrefixCacheStats read(HttpClient http, SimPod pod) throws IOException, InterruptedException {
        String text = http.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/metrics")).timeout(SCRAPE_TIMEOUT)
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> sums = PrometheusText.sums(text, Set.of(QUERIES, HITS));
        return new PrefixCacheStats(Math.round(sums.getOrDefault(QUERIES, 0.0)),
                Math.round(sums.getOrDefault(HITS, 0.0)));
    }

    /** A client for {@link #read}. */
    public static HttpClient client() {
        return HttpClient.newBuilder().connectTimeout(SCRAPE_TIMEOUT).build();
    }

    /** The pods' counters summed; a pod that does not answer adds nothing (the share is over those that did). */
    static PrefixCacheStats scrape(List<SimPod> pods) {
        HttpClient http = client();
        long queried = 0;
        long hits = 0;
        for (SimPod pod : pods) {
            try {
                PrefixCacheStats one = read(http, pod);
                queried += one.queriedTokens;
                hits += one.hitTokens;
            } catch (IOException e) {
                // left out, as above
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new PrefixCacheStats(queried, hits);
    }

    double hitShare() {
        return queriedTokens == 0 ? Double.NaN : (double) hitTokens / queriedTokens;
    }

    String describe() {
        return Double.isNaN(hitShare()) ? "prefix cache: no queries"
                : String.format(Locale.ROOT, "prefix cache: %.1f%% of prompt tokens hit", 100 * hitShare());
    }
}
