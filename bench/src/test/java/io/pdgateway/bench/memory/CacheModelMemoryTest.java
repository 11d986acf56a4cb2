package io.pdgateway.bench.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CacheModelMemoryTest {
    @Test
    void fillsEveryPodToCapacity_withNothingShared() {
        CacheModelMemory.Result result = CacheModelMemory.measure(3, 1000, 64);
        assertThat(result.blocks()).isEqualTo(3 * 1000);
        assertThat(result.blocksPerPod()).isEqualTo(1000);
    }
}
