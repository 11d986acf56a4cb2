package io.pdgateway.server.kvevents;

import io.pdgateway.core.cache.PodCacheEvents;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link PodCacheEvents} receiver that keeps each pod's blocks as a set and records every call, for assertions. */
final class RecordingCacheView implements PodCacheEvents {
    private final Map<String, Set<Long>> blocks = new ConcurrentHashMap<>();
    private final Map<String, Boolean> live = new ConcurrentHashMap<>();
    private final List<String> calls = new ArrayList<>();

    @Override
    public synchronized void stored(String podId, long[] blockHashes) {
        Set<Long> set = blocks.computeIfAbsent(podId, p -> new HashSet<>());
        for (long h : blockHashes) {
            set.add(h);
        }
        calls.add("stored " + podId + " " + blockHashes.length);
    }

    @Override
    public synchronized void removed(String podId, long[] blockHashes) {
        Set<Long> set = blocks.computeIfAbsent(podId, p -> new HashSet<>());
        for (long h : blockHashes) {
            set.remove(h);
        }
        calls.add("removed " + podId + " " + blockHashes.length);
    }

    @Override
    public synchronized void cleared(String podId) {
        blocks.remove(podId);
        calls.add("cleared " + podId);
    }

    @Override
    public synchronized void live(String podId, boolean isLive) {
        live.put(podId, isLive);
        calls.add("live " + podId + " " + isLive);
    }

    synchronized Set<Long> blocks(String podId) {
        return Set.copyOf(blocks.getOrDefault(podId, Set.of()));
    }

    boolean isLive(String podId) {
        return live.getOrDefault(podId, false);
    }

    synchronized long count(String prefix) {
        return calls.stream().filter(c -> c.startsWith(prefix)).count();
    }
}
