package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import io.pdgateway.core.routing.PodPicker;
import io.pdgateway.core.routing.RoutingContext;
import java.util.random.RandomGenerator;

/**
 * The session-affinity strategy: rendezvous hashing of x-aibrix-session-key over the pods, so a session stays on one
 * pod and only the sessions of a pod that leaves move. Without a key (or one over 256 bytes, which the spec says to
 * ignore) any pod will do.
 */
public final class SessionAffinityPodPicker implements PodPicker {
    public static final String NAME = "session-affinity";
    /** Spec, token_load session delta: keys longer than 256 bytes are ignored. */
    public static final int MAX_KEY_BYTES = 256;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pod pick(RoutingContext context, List<Pod> pods) {
        return pick(context.request().sessionKey(), pods, context.random());
    }

    public static Pod pick(String sessionKey, List<Pod> pods, RandomGenerator random) {
        if (pods.isEmpty()) {
            return null;
        }
        if (sessionKey == null || sessionKey.isEmpty()
                || sessionKey.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            return pods.get(random.nextInt(pods.size()));
        }
        Pod best = null;
        long bestWeight = 0;
        for (Pod pod : pods) {
            long weight = mix(fnv1a(sessionKey + "\u0000" + pod.id()));
            if (best == null || Long.compareUnsigned(weight, bestWeight) > 0) {
                best = pod;
                bestWeight = weight;
            }
        }
        return best;
    }

    /**
     * The SplitMix64 finaliser. FNV-1a alone barely mixes its last bytes into the high bits, so pods whose ids differ
     * only at the end ("vllm-0", "vllm-1", "vllm-2") would be ranked by a few low bits and split sessions 25/25/50.
     */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long fnv1a(String text) {
        long hash = FNV_OFFSET;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }
}
