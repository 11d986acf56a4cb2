package io.pdgateway.core.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The adaptive bucket planner on synthetic length distributions: exclusive ranges, two and three rolesets sharing a
 * range with unequal replica counts, both modes, and empty or degenerate traffic.
 */
class BucketPlannerTest {
    private static LengthHistogram uniform(int from, int to, int requests, long seed) {
        LengthHistogram histogram = new LengthHistogram();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < requests; i++) {
            histogram.record(from + random.nextInt(to - from + 1));
        }
        return histogram;
    }

    /** Traffic each roleset receives under the plan, in the given unit. */
    private static Map<String, Double> load(List<Band> bands, double[] weights) {
        Map<String, Double> load = new HashMap<>();
        for (Band band : bands) {
            load.merge(band.roleset(), BucketPlanner.weightBetween(weights, band.lower(), band.upper()), Double::sum);
        }
        return load;
    }

    @Test
    void exclusiveRanges_oneBandEach_asDeclared() {
        List<Band> bands = BucketPlanner.plan(List.of(new RolesetRange("short", 0, 2047, 1),
                new RolesetRange("long", 2048, Integer.MAX_VALUE, 1)), uniform(10, 8000, 5000, 1).weights(true));
        assertThat(bands).containsExactly(new Band("short", 0, 2047), new Band("long", 2048, Integer.MAX_VALUE));
    }

    @Test
    void twoRolesetsOneRange_unequalReplicas_splitInProportion() {
        // Both declare [0, 10000]; rs-a has 3 replicas, rs-b 1: a gets 3/4 of the traffic, b 1/4.
        LengthHistogram histogram = uniform(100, 9000, 20_000, 2);
        for (boolean tokenMass : new boolean[] {true, false}) {
            double[] weights = histogram.weights(tokenMass);
            List<Band> bands = BucketPlanner.plan(List.of(new RolesetRange("rs-a", 0, 10_000, 3),
                    new RolesetRange("rs-b", 0, 10_000, 1)), weights);
            assertThat(bands).hasSize(2);
            assertThat(bands.get(0).lower()).isZero();
            assertThat(bands.get(1).lower()).isEqualTo(bands.get(0).upper() + 1);
            assertThat(bands.get(1).upper()).isEqualTo(10_000);
            Map<String, Double> load = load(bands, weights);
            double total = load.get("rs-a") + load.get("rs-b");
            assertThat(load.get("rs-a") / total).as("mode tokenMass=" + tokenMass).isCloseTo(0.75, within(0.02));
        }
    }

    @Test
    void modes_cutAtDifferentLengths() {
        // Token mass leans to long prompts, request counts do not: the throughput cut lies further up... here the
        // first band takes half, so the rps cut is the median length and the throughput cut the mass median.
        LengthHistogram histogram = uniform(100, 9000, 20_000, 3);
        List<RolesetRange> rolesets = List.of(new RolesetRange("a", 0, 10_000, 1), new RolesetRange("b", 0, 10_000, 1));
        int rpsCut = BucketPlanner.plan(rolesets, histogram.weights(false)).get(0).upper();
        int massCut = BucketPlanner.plan(rolesets, histogram.weights(true)).get(0).upper();
        assertThat(rpsCut).isCloseTo(4550, within(250));
        // Mass median of uniform[100, 9000]: sqrt((100² + 9000²) / 2) ≈ 6364.
        assertThat(massCut).isCloseTo(6364, within(350));
    }

    @Test
    void threeRolesets_overlaps_debitOneShareEach() {
        // rs-short [0, 4000] and rs-long [2000, 16000] overlap on [2000, 4000]; rs-all [0, 16000] covers everything.
        // Replicas 1 : 1 : 2. Every roleset ends near its share (1/4, 1/4, 1/2) despite the overlaps.
        LengthHistogram histogram = uniform(10, 16_000, 40_000, 4);
        double[] weights = histogram.weights(false);
        List<Band> bands = BucketPlanner.plan(List.of(new RolesetRange("rs-short", 0, 4000, 1),
                new RolesetRange("rs-long", 2000, 16_000, 1), new RolesetRange("rs-all", 0, 16_000, 2)), weights);
        Map<String, Double> load = load(bands, weights);
        double total = load.values().stream().mapToDouble(Double::doubleValue).sum();
        assertThat(load.get("rs-short") / total).isCloseTo(0.25, within(0.03));
        assertThat(load.get("rs-long") / total).isCloseTo(0.25, within(0.03));
        assertThat(load.get("rs-all") / total).isCloseTo(0.5, within(0.03));
        for (Band band : bands) {
            assertThat(band.lower()).isLessThanOrEqualTo(band.upper());
        }
        // Bands never overlap and cover [0, 16000] without a gap.
        int next = 0;
        for (Band band : bands) {
            assertThat(band.lower()).isEqualTo(next);
            next = band.upper() + 1;
        }
        assertThat(next).isEqualTo(16_001);
    }

    @Test
    void noTraffic_sharedRangesGetNoBand_exclusiveStillBanded() {
        double[] empty = new LengthHistogram().weights(true);
        List<Band> bands = BucketPlanner.plan(List.of(new RolesetRange("a", 0, 1000, 1),
                new RolesetRange("b", 500, 2000, 1)), empty);
        assertThat(bands).containsExactly(new Band("a", 0, 499), new Band("b", 1001, 2000));
    }

    @Test
    void degenerate_allTrafficOneLength_noEmptyBands() {
        LengthHistogram histogram = new LengthHistogram();
        for (int i = 0; i < 100; i++) {
            histogram.record(777);
        }
        List<Band> bands = BucketPlanner.plan(List.of(new RolesetRange("a", 0, 1000, 1),
                new RolesetRange("b", 0, 1000, 1)), histogram.weights(false));
        assertThat(bands).isNotEmpty().allSatisfy(b -> assertThat(b.lower()).isLessThanOrEqualTo(b.upper()));
        assertThat(bands.get(bands.size() - 1).upper()).isEqualTo(1000);
        assertThat(new BucketPlan(Map.of("m", bands)).rolesetFor("m", 777)).isIn("a", "b");
        assertThat(new BucketPlan(Map.of("m", bands)).rolesetFor("other", 777)).isNull();
    }

    @Test
    void histogram_binsContainTheirLengths() {
        for (int length : new int[] {0, 1, 2, 3, 15, 16, 100, 2047, 2048, 131_072, 3_999_999}) {
            int bin = LengthHistogram.bin(length);
            assertThat(LengthHistogram.lower(bin)).as("lower of %d", length).isLessThanOrEqualTo(length);
            assertThat(LengthHistogram.upper(bin)).as("upper of %d", length).isGreaterThanOrEqualTo(length);
        }
    }
}
