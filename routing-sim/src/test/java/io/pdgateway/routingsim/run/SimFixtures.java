package io.pdgateway.routingsim.run;

import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.workload.ChatServiceMix;
import io.pdgateway.routingsim.workload.ChatServiceWorkload;
import io.pdgateway.routingsim.workload.Workload;
import java.io.IOException;
import java.io.UncheckedIOException;

/** A small cluster and workload for end-to-end runs: loaded enough that queues form and policies differ. */
public final class SimFixtures {
    private SimFixtures() {}

    /** Three 1P1D rolesets for prompts up to 4,096 tokens and one standard pod for longer ones. */
    public static ClusterShape smallCluster() {
        try {
            return ClusterShapeReader.parse("""
                    gateway:
                      AIBRIX_PROMPT_LENGTH_BUCKETING: "true"
                    rolesets:
                      - {name: pd, replicas: 3, bucket: [0, 4096]}
                    standard:
                      - {name: std, replicas: 1, bucket: [4097, 0]}
                    """, "test cluster");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Two minutes of multi-turn chat at 6 requests/s, with 10 % long documents that go to the standard pod. */
    public static Workload chat(long seed) {
        return ChatServiceWorkload.generate(ChatServiceMix.parse("synthetic:rate=6,seconds=120,turns=3,long=0.1,"
                + "longtokens=6000,user=300,output=120"), seed, 16);
    }
}
