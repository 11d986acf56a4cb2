package io.pdgateway.routingsim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The simulator takes an engine's refusal as the gateway takes a computing pod's error answer: the refused prompt
 * leaves the gateway's cache model. A prompt over the model's length is refused by its prefill pod; a shorter prompt
 * with the same beginning follows on idle pods. Were the refused prompt still modelled as cached, prefix_cache would
 * send the follow-up to that pod under every seed; without it the two idle pods are equally good and the seeds differ.
 */
class RefusedPromptRunTest {

    @Test
    void aRefusedPromptDoesNotDrawItsFollowUp() throws Exception {
        ClusterShape shape = ClusterShapeReader.parse("rolesets:\n  - {name: pd, replicas: 2}\n", "two pairs");
        int tooLong = shape.timing().maxModelLen();
        long[] hashes = new SplittableRandom(3).longs(tooLong / shape.timing().blockSizeTokens()).toArray();
        int followUp = 2_000;
        Workload workload = new Workload("refused", "test", List.of(
                new SimRequest(0, 0, tooLong, 16, hashes, null),
                new SimRequest(1, 1_000_000_000L, followUp, 16,
                        Arrays.copyOf(hashes, followUp / shape.timing().blockSizeTokens()), null)));

        int samePod = 0;
        for (long seed = 1; seed <= 20; seed++) {
            RunResult result = new PolicyRun(shape, workload, PolicyRegistry.resolve("pd:prefix_cache:load_balancing"),
                    seed, Slo.INTERACTIVE).run();
            assertThat(result.violations()).isEmpty();
            RequestRecord refused = result.records().get(0);
            RequestRecord next = result.records().get(1);
            assertThat(refused.error()).as("seed %d", seed).contains("refused");
            assertThat(next.failed()).as("seed %d", seed).isFalse();
            if (refused.prefillPod().equals(next.prefillPod())) {
                samePod++;
            }
        }
        assertThat(samePod).as("seeds sending the follow-up to the refusing pod").isBetween(1, 19);
    }
}
