package io.pdgateway.routingsim.workload;

import java.util.List;

/**
 * One event stream: requests in arrival order, and where they came from.
 *
 * @param name short label for reports, e.g. "mooncake-conversation" or "synthetic"
 * @param source how to reproduce it (file and shaping), for the report header
 */
public record Workload(String name, String source, List<SimRequest> requests) {
    public Workload {
        requests = List.copyOf(requests);
        for (int i = 1; i < requests.size(); i++) {
            if (requests.get(i).arrivalNanos() < requests.get(i - 1).arrivalNanos()) {
                throw new IllegalArgumentException("workload " + name + " is not in arrival order at request " + i);
            }
        }
    }

    /** From the first arrival to the last, in nanoseconds (0 for fewer than two requests). */
    public long spanNanos() {
        return requests.size() < 2 ? 0 : requests.get(requests.size() - 1).arrivalNanos() - requests.get(0).arrivalNanos();
    }

    public long promptTokens() {
        return requests.stream().mapToLong(SimRequest::promptTokens).sum();
    }

    public long outputTokens() {
        return requests.stream().mapToLong(SimRequest::outputTokens).sum();
    }
}
