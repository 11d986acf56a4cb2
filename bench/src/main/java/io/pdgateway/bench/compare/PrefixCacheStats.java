package io.pdgateway.bench.compare;

import io.pdgateway.sim.SimPod;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * How much prompt work the pods' prefix caches saved in a run, read from their vLLM metrics
 * ({@code vllm:prefix_cache_hits_total} over {@code vllm:prefix_cache_queries_total}, both in tokens): the number
 * that explains why one prefill policy beats another on a trace with shared prefixes.
 */
record PrefixCacheStats(long queriedTokens, long hitTokens) {
    /** A pod that does not answer its metrics within this time is left out. */
    static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(5);

    static PrefixCacheStats scrape(List<SimPod> pods) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(SCRAPE_TIMEOUT).build();
        long queried = 0;
        long hits = 0;
        for (SimPod pod : pods) {
            try {
                String text = http.send(HttpRequest.newBuilder(URI.create("http://" + pod.host() + ":" + pod.port()
                        + "/metrics")).timeout(SCRAPE_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()).body();
                queried += sum(text, "vllm:prefix_cache_queries_total");
                hits += sum(text, "vllm:prefix_cache_hits_total");
            } catch (IOException e) {
                // a pod without metrics adds nothing; the share is over the pods that answered
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new PrefixCacheStats(queried, hits);
    }

    /** Sum of every sample of one metric in Prometheus text (one line per label set: name{labels} value). */
    static long sum(String text, String metric) {
        long total = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith(metric + "{") || line.startsWith(metric + " ")) {
                String value = line.substring(line.lastIndexOf(' ') + 1).trim();
                total += (long) Double.parseDouble(value);
            }
        }
        return total;
    }

    double hitShare() {
        return queriedTokens == 0 ? Double.NaN : (double) hitTokens / queriedTokens;
    }

    String describe() {
        return Double.isNaN(hitShare()) ? "prefix cache: no queries"
                : String.format(Locale.ROOT, "prefix cache: %.1f%% of prompt tokens hit", 100 * hitShare());
    }
}
