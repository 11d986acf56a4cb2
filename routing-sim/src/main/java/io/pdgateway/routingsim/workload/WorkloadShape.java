package io.pdgateway.routingsim.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How a workload is replayed: arrival rate scaling, a window, an output cap, or fresh Poisson arrivals that keep the
 * recorded lengths (shared/traces/README.md, "How to use them").
 *
 * @param rateScale arrivals come this many times faster than recorded (timestamps divided by it)
 * @param windowSeconds keep only requests arriving within this many seconds after scaling; 0 keeps all
 * @param maxOutputTokens cap on each request's output; 0 for none
 * @param poissonRate when > 0, replace the arrival times by a Poisson process of this many requests per second
 * @param limit keep at most this many requests; 0 for all
 */
public record WorkloadShape(double rateScale, double windowSeconds, int maxOutputTokens, double poissonRate, int limit) {
    public static final WorkloadShape AS_RECORDED = new WorkloadShape(1, 0, 0, 0, 0);

    public WorkloadShape {
        if (!(rateScale > 0) || windowSeconds < 0 || maxOutputTokens < 0 || poissonRate < 0 || limit < 0) {
            throw new IllegalArgumentException("workload shape out of range: " + this);
        }
    }

    public Workload apply(Workload workload, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        long windowNanos = windowSeconds > 0 ? Math.round(windowSeconds * 1e9) : Long.MAX_VALUE;
        List<SimRequest> out = new ArrayList<>();
        long origin = workload.requests().isEmpty() ? 0 : workload.requests().get(0).arrivalNanos();
        double poissonClock = 0;
        for (SimRequest r : workload.requests()) {
            long at;
            if (poissonRate > 0) {
                poissonClock += -Math.log(1 - random.nextDouble()) / poissonRate;
                at = Math.round(poissonClock * 1e9);
            } else {
                at = Math.round((r.arrivalNanos() - origin) / rateScale);
            }
            if (at > windowNanos || limit > 0 && out.size() >= limit) {
                break;
            }
            int output = maxOutputTokens > 0 ? Math.min(maxOutputTokens, r.outputTokens()) : r.outputTokens();
            out.add(r.reshaped(out.size(), at, output));
        }
        return new Workload(workload.name(), workload.source() + describe(), out);
    }

    private String describe() {
        StringBuilder s = new StringBuilder();
        if (poissonRate > 0) {
            s.append(String.format(Locale.ROOT, " poisson=%s/s", poissonRate));
        } else if (rateScale != 1) {
            s.append(String.format(Locale.ROOT, " rate-scale=%s", rateScale));
        }
        if (windowSeconds > 0) {
            s.append(String.format(Locale.ROOT, " window=%ss", windowSeconds));
        }
        if (maxOutputTokens > 0) {
            s.append(" max-output=").append(maxOutputTokens);
        }
        if (limit > 0) {
            s.append(" limit=").append(limit);
        }
        return s.toString();
    }
}
