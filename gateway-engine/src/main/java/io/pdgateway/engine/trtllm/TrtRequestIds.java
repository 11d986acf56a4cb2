package io.pdgateway.engine.trtllm;

import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Snowflake-style {@code disagg_request_id}s for TensorRT-LLM (reference §1.4): 41 bits of milliseconds since
 * 2023-01-01Z, the 10-bit machine id (AIBRIX_TRT_MACHINE_ID), a 12-bit process-wide counter, rotated into
 * [2^42, 2^63-1) because TRT-LLM treats smaller ids as local to one worker. Thread-safe.
 */
public final class TrtRequestIds {
    /** Reference §1.4: the Snowflake epoch, 2023-01-01T00:00:00Z in milliseconds. */
    static final long EPOCH_MILLIS = 1_672_531_200_000L;
    static final int MACHINE_BITS = 10;
    static final int COUNTER_BITS = 12;
    static final long TIMESTAMP_MAX = (1L << 41) - 1;
    static final long COUNTER_MASK = (1L << COUNTER_BITS) - 1;
    /** Reference §1.4: TRT-LLM's smallest global (cross-worker) disagg id. */
    public static final long MIN_GLOBAL_ID = 1L << 42;

    private final long machineId;
    private final InstantSource clock;
    private final AtomicLong counter = new AtomicLong();

    public TrtRequestIds(int machineId, InstantSource clock) {
        if (machineId < 0 || machineId >= 1 << MACHINE_BITS) {
            throw new IllegalArgumentException("TensorRT-LLM machine id must be within [0, 1024), got " + machineId);
        }
        this.machineId = machineId;
        this.clock = clock;
    }

    public long next() {
        long timestamp = Math.min(TIMESTAMP_MAX, Math.max(0, clock.millis() - EPOCH_MILLIS));
        long sequence = counter.getAndIncrement() & COUNTER_MASK;
        long raw = timestamp << (MACHINE_BITS + COUNTER_BITS) | machineId << COUNTER_BITS | sequence;
        return raw % (Long.MAX_VALUE - MIN_GLOBAL_ID) + MIN_GLOBAL_ID;
    }
}
