package io.pdgateway.core.bucket;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Spec, "Adaptive Bucket Serving": turns the declared ranges of one model's rolesets and the observed prompt lengths
 * into bands. Each roleset's target is its replica-proportional share of the traffic. The length axis is cut into
 * elementary segments at every declared boundary; a segment only one roleset covers is charged to it, and a segment
 * several cover is split into one band per roleset at quantiles of the observed traffic. How much of a shared segment
 * each roleset takes is found by iterative proportional fitting over all segments at once, so a roleset carrying
 * several overlaps draws on one budget, and a roleset that can only serve a narrow range gets first call on it while
 * a roleset that can serve everywhere takes its share elsewhere. Pure.
 */
public final class BucketPlanner {
    /** Fitting rounds: the allocation settles within 1 % long before this for any realistic number of rolesets. */
    static final int FITTING_ROUNDS = 200;

    private BucketPlanner() {}

    private record Segment(int lo, int hi, List<RolesetRange> covering, double mass) {}

    public static List<Band> plan(List<RolesetRange> rolesets, double[] weights) {
        List<Segment> segments = segments(rolesets, weights);
        Map<String, double[]> shares = fit(rolesets, segments);
        List<Band> bands = new ArrayList<>();
        for (int s = 0; s < segments.size(); s++) {
            Segment segment = segments.get(s);
            if (segment.covering().size() == 1) {
                bands.add(new Band(segment.covering().get(0).roleset(), segment.lo(), segment.hi()));
            } else if (segment.mass() > 0) {
                split(segment, s, shares, weights, bands);
            }
        }
        bands.sort(Comparator.comparingInt(Band::lower));
        return bands;
    }

    /**
     * The share of each segment each roleset takes (per roleset: an array over segments). Starts in proportion to
     * replicas, then alternately scales each roleset toward its target load and renormalises each segment.
     */
    private static Map<String, double[]> fit(List<RolesetRange> rolesets, List<Segment> segments) {
        int n = segments.size();
        double total = 0;
        for (Segment s : segments) {
            total += s.mass();
        }
        int replicas = 0;
        for (RolesetRange r : rolesets) {
            replicas += r.replicas();
        }
        Map<String, double[]> weight = new HashMap<>();
        for (RolesetRange r : rolesets) {
            double[] w = new double[n];
            for (int s = 0; s < n; s++) {
                w[s] = segments.get(s).covering().contains(r) ? Math.max(1, r.replicas()) : 0;
            }
            weight.put(r.roleset(), w);
        }
        Map<String, double[]> shares = normalise(weight, n);
        for (int round = 0; round < FITTING_ROUNDS && total > 0; round++) {
            for (RolesetRange r : rolesets) {
                double target = total * r.replicas() / Math.max(1, replicas);
                double load = 0;
                double[] p = shares.get(r.roleset());
                for (int s = 0; s < n; s++) {
                    load += p[s] * segments.get(s).mass();
                }
                if (load > 0 && target > 0) {
                    double[] w = weight.get(r.roleset());
                    for (int s = 0; s < n; s++) {
                        w[s] *= target / load;
                    }
                }
            }
            shares = normalise(weight, n);
        }
        return shares;
    }

    private static Map<String, double[]> normalise(Map<String, double[]> weight, int n) {
        double[] column = new double[n];
        for (double[] w : weight.values()) {
            for (int s = 0; s < n; s++) {
                column[s] += w[s];
            }
        }
        Map<String, double[]> shares = new HashMap<>();
        weight.forEach((roleset, w) -> {
            double[] p = new double[n];
            for (int s = 0; s < n; s++) {
                p[s] = column[s] > 0 ? w[s] / column[s] : 0;
            }
            shares.put(roleset, p);
        });
        return shares;
    }

    /** Elementary segments between consecutive declared boundaries, with the rolesets covering each. */
    private static List<Segment> segments(List<RolesetRange> rolesets, double[] weights) {
        TreeSet<Long> points = new TreeSet<>();
        for (RolesetRange r : rolesets) {
            points.add((long) r.min());
            points.add((long) r.max() + 1);
        }
        List<Segment> segments = new ArrayList<>();
        Long previous = null;
        for (long point : points) {
            if (previous != null) {
                int lo = (int) (long) previous;
                int hi = (int) Math.min(Integer.MAX_VALUE, point - 1);
                List<RolesetRange> covering = new ArrayList<>();
                for (RolesetRange r : rolesets) {
                    if (r.min() <= lo && r.max() >= hi) {
                        covering.add(r);
                    }
                }
                if (!covering.isEmpty()) {
                    covering.sort(Comparator.comparingInt(RolesetRange::min).thenComparingInt(RolesetRange::max)
                            .thenComparing(RolesetRange::roleset));
                    segments.add(new Segment(lo, hi, covering, weightBetween(weights, lo, hi)));
                }
            }
            previous = point;
        }
        return segments;
    }

    /** Cuts a shared segment into consecutive bands at quantiles of the observed traffic, one per roleset. */
    private static void split(Segment segment, int index, Map<String, double[]> shares, double[] weights,
            List<Band> bands) {
        List<RolesetRange> covering = segment.covering();
        double cumulative = 0;
        int lo = segment.lo();
        for (int i = 0; i < covering.size(); i++) {
            cumulative += segment.mass() * shares.get(covering.get(i).roleset())[index];
            int hi = i == covering.size() - 1 ? segment.hi() : quantile(weights, segment.lo(), segment.hi(), cumulative);
            if (hi >= lo) {
                bands.add(new Band(covering.get(i).roleset(), lo, hi));
                if (hi == Integer.MAX_VALUE) {
                    return;
                }
                lo = hi + 1;
            }
        }
    }

    /** The smallest length x in [lo, hi] whose cumulative weight from lo reaches {@code target}. */
    static int quantile(double[] weights, int lo, int hi, double target) {
        long a = lo;
        long b = hi;
        while (a < b) {
            long mid = (a + b) >>> 1;
            if (weightBetween(weights, lo, (int) mid) >= target) {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        return (int) a;
    }

    /** Weight of lengths [lo, hi], a bin counted in proportion to how much of it the interval covers. */
    static double weightBetween(double[] weights, int lo, int hi) {
        double total = 0;
        int first = Math.min(LengthHistogram.bin(lo), weights.length - 1);
        int last = Math.min(LengthHistogram.bin(hi), weights.length - 1);
        for (int b = first; b <= last; b++) {
            if (weights[b] == 0) {
                continue;
            }
            long binLo = LengthHistogram.lower(b);
            long binHi = LengthHistogram.upper(b);
            long overlap = Math.min(binHi, hi) - Math.max(binLo, lo) + 1;
            if (overlap > 0) {
                total += weights[b] * overlap / (binHi - binLo + 1);
            }
        }
        return total;
    }
}
