package io.pdgateway.workload;

import java.util.Comparator;
import java.util.List;

/**
 * The requests of one run, in arrival order, and a one-line description of where they came from (for reports).
 */
public record LoadSchedule(String description, List<LoadRequest> requests) {
    public LoadSchedule {
        requests = requests.stream().sorted(Comparator.comparingLong(LoadRequest::arrivalMillis)).toList();
    }

    public int size() {
        return requests.size();
    }

    /** Arrival time of the last request: how long the open-loop part of a run lasts. */
    public long spanMillis() {
        return requests.isEmpty() ? 0 : requests.get(requests.size() - 1).arrivalMillis();
    }

    public long promptTokens() {
        return requests.stream().mapToLong(r -> r.prompt().tokens()).sum();
    }

    public long outputTokens() {
        return requests.stream().mapToLong(LoadRequest::outputTokens).sum();
    }
}
