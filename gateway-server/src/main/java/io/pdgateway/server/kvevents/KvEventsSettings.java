package io.pdgateway.server.kvevents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the gateway follows the engines' KV-event streams. Build with {@link #fromEnv}; a bad value keeps its default and
 * is reported in {@link #warnings()}.
 *
 * @param staleAfter PD_GATEWAY_KV_EVENTS_STALE_MS: a pod from which nothing was heard for this long (no batch, no
 *     answer to a replay probe) is reported not live, and its view falls back to the gateway-side model
 * @param probeAfter after this much silence the subscriber asks the replay socket for anything past the last batch: an
 *     idle engine publishes nothing, and the answer (an end marker, or the batches it missed) proves the stream alive
 * @param replayTimeout a replay that has not ended by then counts as failed
 * @param reconnectMin first wait before re-creating a silent pod's sockets; doubles per failed attempt
 * @param reconnectMax the cap of that wait
 * @param maxBlocksPerPod PD_GATEWAY_KV_EVENTS_MAX_BLOCKS_PER_POD: engine blocks remembered per pod to resolve parents
 *     and removals ({@link BlockRekeyer})
 * @param maxBufferedBatches live batches held per pod while a replay fills a gap; more and the gap is given up
 */
public record KvEventsSettings(Duration staleAfter, Duration probeAfter, Duration replayTimeout,
        Duration reconnectMin, Duration reconnectMax, int maxBlocksPerPod, int maxBufferedBatches,
        List<String> warnings) {

    public static final String STALE_MS_ENV = "PD_GATEWAY_KV_EVENTS_STALE_MS";
    public static final String MAX_BLOCKS_PER_POD_ENV = "PD_GATEWAY_KV_EVENTS_MAX_BLOCKS_PER_POD";

    /**
     * 5 s: with a probe after 1 s of silence, five probes go unanswered before a pod is called stale, so one lost
     * packet or a GC pause on either side does not flap it; and it is short next to the time a loaded engine takes to
     * turn over a meaningful share of its cache (minutes at the Mooncake trace's rates), so a dead stream is dropped
     * before its view misleads routing much. The engine-metrics view goes stale after 2 s for comparison.
     */
    public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(5);
    /** A fifth of the staleness limit (see {@link #DEFAULT_STALE_AFTER}). */
    public static final int PROBES_PER_STALE_PERIOD = 5;
    /** 2 s: vLLM's publisher serves replays between two publishes, well under a millisecond per batch. */
    public static final Duration DEFAULT_REPLAY_TIMEOUT = Duration.ofSeconds(2);
    /** 250 ms, doubling to 30 s: fast after a pod restart, a few attempts a minute against a pod that stays away. */
    public static final Duration DEFAULT_RECONNECT_MIN = Duration.ofMillis(250);
    public static final Duration DEFAULT_RECONNECT_MAX = Duration.ofSeconds(30);
    /**
     * 65,536 engine blocks: 1M tokens at vLLM's 16-token blocks, above an 80 GB GPU's whole KV cache for an 8B model
     * (about 500k tokens); about 10 MB per pod when full (see {@link BlockRekeyer}).
     */
    public static final int DEFAULT_MAX_BLOCKS_PER_POD = 65_536;
    /** 10,000 batches: vLLM's replay buffer keeps the same number (buffer_steps). */
    public static final int DEFAULT_MAX_BUFFERED_BATCHES = 10_000;

    public KvEventsSettings {
        warnings = List.copyOf(warnings);
    }

    public static KvEventsSettings defaults() {
        return fromEnv(Map.of());
    }

    public static KvEventsSettings fromEnv(Map<String, String> env) {
        List<String> warnings = new ArrayList<>();
        long staleMs = positive(env, STALE_MS_ENV, DEFAULT_STALE_AFTER.toMillis(), warnings);
        long maxBlocks = positive(env, MAX_BLOCKS_PER_POD_ENV, DEFAULT_MAX_BLOCKS_PER_POD, warnings);
        if (maxBlocks > Integer.MAX_VALUE) {
            warnings.add(MAX_BLOCKS_PER_POD_ENV + "=" + maxBlocks + " is too large; using " + DEFAULT_MAX_BLOCKS_PER_POD);
            maxBlocks = DEFAULT_MAX_BLOCKS_PER_POD;
        }
        Duration stale = Duration.ofMillis(staleMs);
        return new KvEventsSettings(stale, stale.dividedBy(PROBES_PER_STALE_PERIOD),
                min(DEFAULT_REPLAY_TIMEOUT, stale.dividedBy(2)), DEFAULT_RECONNECT_MIN, DEFAULT_RECONNECT_MAX,
                (int) maxBlocks, DEFAULT_MAX_BUFFERED_BATCHES, warnings);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static long positive(Map<String, String> env, String key, long fallback, List<String> warnings) {
        String value = env.get(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the warning
        }
        warnings.add(key + "=" + value + " is not a positive integer; using " + fallback);
        return fallback;
    }
}
