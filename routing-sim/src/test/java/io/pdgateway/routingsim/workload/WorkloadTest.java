package io.pdgateway.routingsim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The workloads: Mooncake's shared 512-token blocks become shared leading KV-block hashes, Azure prompts share
 * nothing, synthetic mixes are reproducible from their seed and sessions grow a shared prefix, and shaping scales,
 * cuts and caps as asked.
 */
class WorkloadTest {
    private static final Path TRACES = Path.of("src/test/resources/traces");

    @Test
    void mooncake_sharedHashIds_shareLeadingBlocks_andNoMore() throws Exception {
        Workload w = TraceWorkloads.mooncake(TRACES.resolve("mooncake-sample.jsonl"), 16);
        assertThat(w.requests()).hasSize(4);
        SimRequest a = w.requests().get(0);
        SimRequest b = w.requests().get(1);
        // Ids [0, 1, 2] and [0, 1, 3, 4]: the first 1,024 tokens (64 blocks of 16) are the same text.
        assertThat(a.blockHashes()).hasSize(1100 / 16);
        assertThat(Arrays.copyOf(a.blockHashes(), 64)).isEqualTo(Arrays.copyOf(b.blockHashes(), 64));
        assertThat(a.blockHashes()[64]).isNotEqualTo(b.blockHashes()[64]);
        assertThat(w.requests().get(2).blockHashes()[0]).isNotEqualTo(a.blockHashes()[0]);
        assertThat(w.requests().get(2).arrivalNanos()).isEqualTo(250_000_000L);
        // An output of 0 tokens in the trace still produces one token.
        assertThat(w.requests().get(3).outputTokens()).isEqualTo(1);
    }

    @Test
    void azure_lengthsAndArrivals_noSharedBlocks() throws Exception {
        Workload w = TraceWorkloads.azure(TRACES.resolve("azure-sample.csv"), 16);
        assertThat(w.requests()).extracting(SimRequest::promptTokens).containsExactly(374, 396, 879);
        assertThat(w.requests().get(1).arrivalNanos()).isEqualTo(4_314_000_000L);
        assertThat(w.requests().get(0).blockHashes()[0]).isNotEqualTo(w.requests().get(1).blockHashes()[0]);
    }

    @Test
    void synthetic_sameSeed_sameRequests_differentSeed_differs() {
        ChatServiceMix mix = ChatServiceMix.parse("synthetic:rate=4,seconds=60,turns=3");
        Workload a = ChatServiceWorkload.generate(mix, 7, 16);
        Workload b = ChatServiceWorkload.generate(mix, 7, 16);
        Workload c = ChatServiceWorkload.generate(mix, 8, 16);
        assertThat(a.requests()).hasSameSizeAs(b.requests());
        for (int i = 0; i < a.requests().size(); i++) {
            assertThat(a.requests().get(i).arrivalNanos()).isEqualTo(b.requests().get(i).arrivalNanos());
            assertThat(a.requests().get(i).blockHashes()).isEqualTo(b.requests().get(i).blockHashes());
        }
        assertThat(c.requests().get(0).arrivalNanos()).isNotEqualTo(a.requests().get(0).arrivalNanos());
    }

    @Test
    void synthetic_laterTurnsOfASession_extendTheEarlierPrompt() {
        Workload w = ChatServiceWorkload.generate(ChatServiceMix.parse("synthetic:rate=2,seconds=120,turns=3,long=0"), 1, 16);
        SimRequest first = null;
        SimRequest later = null;
        for (SimRequest r : w.requests()) {
            if (first == null) {
                first = r;
            } else if (r.sessionKey().equals(first.sessionKey())) {
                later = r;
                break;
            }
        }
        assertThat(later).as("a second turn of the first session").isNotNull();
        assertThat(later.promptTokens()).isGreaterThan(first.promptTokens());
        int shared = first.blockHashes().length;
        assertThat(Arrays.copyOf(later.blockHashes(), shared)).isEqualTo(first.blockHashes());
    }

    @Test
    void synthetic_unknownOption_namesIt() {
        assertThatThrownBy(() -> ChatServiceMix.parse("synthetic:rate=2,colour=blue"))
                .hasMessageContaining("colour");
    }

    @Test
    void shape_rateScaleWindowAndOutputCap() throws Exception {
        Workload w = TraceWorkloads.mooncake(TRACES.resolve("mooncake-sample.jsonl"), 16);
        Workload shaped = new WorkloadShape(2, 0.2, 10, 0, 0).apply(w, 1);
        // Arrivals halve (0, 0, 125 ms, 500 ms); the 0.2 s window drops the last; outputs are capped at 10.
        assertThat(shaped.requests()).extracting(SimRequest::arrivalNanos).containsExactly(0L, 0L, 125_000_000L);
        assertThat(shaped.requests()).extracting(SimRequest::outputTokens).containsExactly(10, 5, 1);
    }

    @Test
    void shape_poisson_keepsLengths_newArrivals() throws Exception {
        Workload w = TraceWorkloads.mooncake(TRACES.resolve("mooncake-sample.jsonl"), 16);
        Workload shaped = new WorkloadShape(1, 0, 0, 10, 0).apply(w, 1);
        assertThat(shaped.requests()).extracting(SimRequest::promptTokens).containsExactly(1100, 1600, 700, 2048);
        assertThat(shaped.requests().get(0).arrivalNanos()).isPositive();
    }
}
