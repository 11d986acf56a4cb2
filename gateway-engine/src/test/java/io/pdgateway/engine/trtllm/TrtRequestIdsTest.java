package io.pdgateway.engine.trtllm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Snowflake disagg_request_ids (reference §1.4, upstream scenario #32). */
class TrtRequestIdsTest {
    private static InstantSource at(long epochMillis) {
        return InstantSource.fixed(Instant.ofEpochMilli(epochMillis));
    }

    @Test
    void consecutiveIds_differ_andAreGlobal() {
        TrtRequestIds ids = new TrtRequestIds(7, InstantSource.system());
        long first = ids.next();
        long second = ids.next();
        assertThat(first).isNotEqualTo(second);
        assertThat(first).isGreaterThanOrEqualTo(TrtRequestIds.MIN_GLOBAL_ID);
        assertThat(second).isGreaterThanOrEqualTo(TrtRequestIds.MIN_GLOBAL_ID);
    }

    @Test
    void layout_timestampMachineCounter_rotatedAboveTwoPow42() {
        // 1000 ms after the epoch, machine 5, counter 0 then 1:
        // raw = 1000 << 22 | 5 << 12 | n = 4_194_304_000 + 20_480 + n, far below the modulus, so id = raw + 2^42.
        TrtRequestIds ids = new TrtRequestIds(5, at(TrtRequestIds.EPOCH_MILLIS + 1000));
        assertThat(ids.next()).isEqualTo(4_194_324_480L + (1L << 42));
        assertThat(ids.next()).isEqualTo(4_194_324_481L + (1L << 42));
    }

    @Test
    void clockBeforeEpoch_timestampClampedToZero() {
        assertThat(new TrtRequestIds(0, at(0)).next()).isEqualTo(1L << 42);
    }

    @Test
    void latestTimestamp_staysWithinInt63() {
        long id = new TrtRequestIds(1023, at(Long.MAX_VALUE / 2)).next();
        assertThat(id).isBetween(TrtRequestIds.MIN_GLOBAL_ID, Long.MAX_VALUE);
    }

    @Test
    void counterWraps_after4096() {
        TrtRequestIds ids = new TrtRequestIds(0, at(TrtRequestIds.EPOCH_MILLIS));
        long first = ids.next();
        for (int i = 1; i < 4096; i++) {
            ids.next();
        }
        assertThat(ids.next()).isEqualTo(first);
    }

    @ParameterizedTest(name = "machine id {0} is valid")
    @ValueSource(ints = {0, 512, 1023})
    void machineIdInRange_accepted(int machineId) {
        assertThat(new TrtRequestIds(machineId, InstantSource.system()).next()).isPositive();
    }

    @ParameterizedTest(name = "machine id {0} is refused")
    @ValueSource(ints = {-1, 1024, 1025})
    void machineIdOutOfRange_refused(int machineId) {
        assertThatThrownBy(() -> new TrtRequestIds(machineId, InstantSource.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1024");
    }
}
