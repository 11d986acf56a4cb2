package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.HashMap;
import java.util.Map;

/** A LoadView with counts set by name, for scenario tables. */
final class FixedLoad implements LoadView {
    private final Map<String, Integer> prefills = new HashMap<>();
    private final Map<String, Integer> running = new HashMap<>();

    FixedLoad prefilling(String pod, int count) {
        prefills.put(pod, count);
        return this;
    }

    FixedLoad running(String pod, int count) {
        running.put(pod, count);
        return this;
    }

    @Override
    public int inFlightPrefills(Pod pod) {
        return prefills.getOrDefault(pod.name(), 0);
    }

    @Override
    public int runningRequests(Pod pod) {
        return running.getOrDefault(pod.name(), 0);
    }
}
