package io.pdgateway.bench.overhead;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The highest request rate a target sustains with its p99 within twice a baseline p99: a stepped search, bounded in
 * steps.
 *
 * <p>The baseline p99 is measured beforehand at a light load, and it is the same for every target compared (the
 * overhead benchmark takes the direct path's p99 from its fixed-rate comparison: hundreds of requests interleaved with
 * the other targets, steadier than one short step), so every target meets one latency limit. The search starts at
 * {@code startRate} and doubles the rate while steps pass (no error, p99 at most twice the baseline), up to
 * {@code maxRate}; after the first failure it bisects between the last passing and the first failing rate. It stops
 * after {@code maxSteps} steps, or when the bracket is narrower than {@code resolution} (a relative width: 0.1 =
 * within 10 %). The answer is the highest passing rate, a lower bound on what the target sustains, never a guess
 * above what was seen; NaN when even the start rate failed.
 *
 * <p>A failing step is measured once more before it counts: on a shared 2-core machine one 5-second step's p99 is
 * its top few requests, and a single scheduling hiccup would otherwise end a search far below the knee. A rate
 * fails only when both measurements fail (past the knee p99 grows by orders of magnitude, so both do).
 *
 * <p>Pure state machine: {@link #next()} says which rate to try, {@link #record} takes what the step measured. No
 * clock, no I/O, so it is tested with made-up steps.
 */
public final class RateSearch {
    /** A step fails once p99 exceeds this multiple of the baseline p99 (the direct path's, in the overhead bench). */
    public static final double P99_LIMIT_FACTOR = 2.0;
    /**
     * The overhead benchmark's step budget: enough for a search from 80 to 3,200 a second to bisect to 10 % wherever
     * its knee lies, every failure measured twice (at most 15 steps). With 8 the budget, not the resolution, ended
     * most searches, a bracket of a third or a half wide: 960 reported where the knee lay anywhere below 1,280.
     */
    public static final String DEFAULT_STEPS = "16";
    static final double GROWTH = 2.0;
    /** A target failing even at a tenth of the start rate is broken, not slow: the search gives up there. */
    static final double MIN_SHARE_OF_START = 0.1;

    private final double startRate;
    private final double maxRate;
    private final int maxSteps;
    private final double resolution;
    private final List<RateStep> steps = new ArrayList<>();
    private final double baselineP99;
    private double highestPass = Double.NaN;
    private double lowestFail = Double.NaN;
    /** A rate whose first measurement failed and is measured again before it counts; NaN when none. */
    private double unconfirmed = Double.NaN;

    /** @param baselineP99Millis the reference p99 at light load, the same for every target: steps pass up to twice it */
    public RateSearch(double baselineP99Millis, double startRate, double maxRate, int maxSteps, double resolution) {
        if (!(baselineP99Millis > 0) || !(startRate > 0) || !(maxRate >= startRate) || maxSteps < 1
                || !(resolution > 0)) {
            throw new IllegalArgumentException("need a baseline p99 > 0, 0 < startRate <= maxRate, maxSteps >= 1, "
                    + "resolution > 0");
        }
        this.baselineP99 = baselineP99Millis;
        this.startRate = startRate;
        this.maxRate = maxRate;
        this.maxSteps = maxSteps;
        this.resolution = resolution;
    }

    /** The rate to try next, or empty when the search is over. */
    public OptionalDouble next() {
        if (steps.isEmpty()) {
            return OptionalDouble.of(startRate);
        }
        if (steps.size() >= maxSteps) {
            return OptionalDouble.empty();
        }
        if (!Double.isNaN(unconfirmed)) {
            return OptionalDouble.of(unconfirmed);
        }
        if (Double.isNaN(highestPass)) {
            // Nothing passed yet: halve below the lowest failure, down to a tenth of the start rate.
            double lower = lowestFail / GROWTH;
            return lower < startRate * MIN_SHARE_OF_START ? OptionalDouble.empty() : OptionalDouble.of(lower);
        }
        if (Double.isNaN(lowestFail)) {
            return highestPass >= maxRate ? OptionalDouble.empty()
                    : OptionalDouble.of(Math.min(maxRate, highestPass * GROWTH));
        }
        if (lowestFail - highestPass <= resolution * highestPass) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((highestPass + lowestFail) / 2);
    }

    /** Takes a step's measurement at the rate {@link #next()} gave and judges it against the baseline. */
    public RateStep record(RateStep step) {
        boolean passed = step.errors() == 0 && step.requests() > 0 && !Double.isNaN(step.p99Millis())
                && step.p99Millis() <= limitMillis();
        RateStep judged = step.judged(passed);
        steps.add(judged);
        boolean confirming = !Double.isNaN(unconfirmed);
        unconfirmed = Double.NaN;
        if (passed) {
            highestPass = Double.isNaN(highestPass) ? step.offeredRate() : Math.max(highestPass, step.offeredRate());
        } else if (confirming) {
            lowestFail = Double.isNaN(lowestFail) ? step.offeredRate() : Math.min(lowestFail, step.offeredRate());
        } else {
            unconfirmed = step.offeredRate();
        }
        return judged;
    }

    /** The p99 a step may reach and still pass: twice the baseline's. */
    public double limitMillis() {
        return baselineP99 * P99_LIMIT_FACTOR;
    }

    public double baselineP99Millis() {
        return baselineP99;
    }

    /** The highest rate that passed (NaN when none did). */
    public double sustainedRate() {
        return highestPass;
    }

    /** True when even {@code maxRate} passed: the target sustains at least that, the search did not find its limit. */
    public boolean cappedByMaxRate() {
        return !Double.isNaN(highestPass) && highestPass >= maxRate && Double.isNaN(lowestFail);
    }

    public List<RateStep> steps() {
        return List.copyOf(steps);
    }
}
