package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.sim.SimRole;
import io.pdgateway.workload.prompt.PromptSynthesizer;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Adaptive bucket serving end to end. Three 1P1D rolesets with overlapping declared ranges: rs-a and rs-b take any
 * prompt up to 16000 tokens, rs-c only prompts up to 1000. Under a skewed mix (70 % short, 30 % long) plain
 * bucketing spreads each request over every roleset that can take it, so rs-c gets a third of the short requests
 * and almost none of the token mass; with the plan, rs-c takes what only it is suited for and the load per roleset
 * (token mass in throughput mode, requests in rps mode) is more even. The numbers are printed for BENCHMARKS.md.
 */
class BucketServeIT {
    private static final int WARM_UP = 150;
    private static final int MEASURED = 150;
    @AutoClose
    private TestCluster cluster;

    private static String range(int max) {
        return "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":{\"promptLenBucketMinLength\":0,"
                + "\"promptLenBucketMaxLength\":" + max + "}}}}";
    }

    /** Per roleset: [token mass, requests] of the measured requests. */
    private Map<String, double[]> run(Map<String, String> env, boolean replanAfterWarmUp) throws Exception {
        if (cluster != null) {
            cluster.close(); // the previous run's; the last one is closed after the test
        }
        cluster = new TestCluster();
        for (String rs : new String[] {"rs-a", "rs-b", "rs-c"}) {
            String config = range(rs.equals("rs-c") ? 1000 : 16_000);
            cluster.pod("p-" + rs, SimRole.PREFILL, rs, Map.of(), config).pod("d-" + rs, SimRole.DECODE, rs, Map.of(), config);
        }
        Map<String, String> all = new HashMap<>(env);
        all.put("AIBRIX_PROMPT_LENGTH_BUCKETING", "true");
        all.put("AIBRIX_PREFILL_SCORE_POLICY", "least_request");
        // token_load on the decode side: no cold-start score, so plain bucketing spreads ties over every roleset.
        all.put("AIBRIX_DECODE_SCORE_POLICY", "token_load");
        cluster.startGateway(all);
        SplittableRandom random = new SplittableRandom(11);
        Map<String, double[]> load = new HashMap<>();
        for (int i = 0; i < WARM_UP + MEASURED; i++) {
            if (i == WARM_UP && replanAfterWarmUp) {
                cluster.gateway().routing().session().replanBuckets(); // what the 5-second timer does
            }
            int tokens = random.nextInt(10) < 7 ? 100 + random.nextInt(900) : 4000 + random.nextInt(8000);
            HttpResponse<String> response = cluster.post("/v1/chat/completions",
                    TestCluster.chat(PromptSynthesizer.text(tokens, i), 1, false));
            assertThat(response.statusCode()).isEqualTo(200);
            if (i >= WARM_UP) {
                String rs = response.headers().firstValue("prefill-target-pod").orElseThrow().substring(2);
                double[] v = load.computeIfAbsent(rs, k -> new double[2]);
                v[0] += tokens;
                v[1] += 1;
            }
        }
        return load;
    }

    /** min / max of the per-roleset load in one unit: 1 is perfectly even. */
    private static double evenness(Map<String, double[]> load, int unit) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (String rs : new String[] {"rs-a", "rs-b", "rs-c"}) {
            double v = load.getOrDefault(rs, new double[2])[unit];
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return max == 0 ? 0 : min / max;
    }

    private static String describe(Map<String, double[]> load) {
        StringBuilder out = new StringBuilder();
        for (String rs : new String[] {"rs-a", "rs-b", "rs-c"}) {
            double[] v = load.getOrDefault(rs, new double[2]);
            out.append(String.format(Locale.ROOT, " %s: %.0f tokens / %.0f requests;", rs, v[0], v[1]));
        }
        return out.toString();
    }

    @Test
    void throughputMode_tokenMassMoreEven_rpsMode_requestsMoreEven() throws Exception {
        Map<String, double[]> plain = run(Map.of(), false);
        Map<String, double[]> throughput = run(Map.of("AIBRIX_BUCKET_SERVE", "true"), true);
        Map<String, double[]> rps = run(Map.of("AIBRIX_BUCKET_SERVE", "true", "AIBRIX_BUCKET_SERVE_MODE", "rps"), true);
        System.out.printf(Locale.ROOT, "BUCKET-SERVE plain:%s token evenness %.2f, request evenness %.2f%n",
                describe(plain), evenness(plain, 0), evenness(plain, 1));
        System.out.printf(Locale.ROOT, "BUCKET-SERVE throughput:%s token evenness %.2f%n", describe(throughput),
                evenness(throughput, 0));
        System.out.printf(Locale.ROOT, "BUCKET-SERVE rps:%s request evenness %.2f%n", describe(rps), evenness(rps, 1));
        assertThat(evenness(throughput, 0)).isGreaterThan(evenness(plain, 0) + 0.1);
        assertThat(evenness(rps, 1)).isGreaterThan(evenness(plain, 1) + 0.1);
    }
}
