package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The overhead report states the one latency limit every target's rate search met, and says so when the rig rather
 * than the proxies set the ceiling (the direct path sustaining no more than a proxy in front of the same pod).
 */
class OverheadReportTest {
    /** The direct path's p99: every target passes a step up to twice it, 6 ms. */
    private static final double DIRECT_P99 = 3;

    /** A search run against a target whose p99 is 5 ms up to {@code knee} req/s and 50 ms above it. */
    private static RateSearch searched(double knee) {
        RateSearch search = new RateSearch(DIRECT_P99, 40, 1280, 20, 0.1);
        OptionalDouble next;
        while ((next = search.next()).isPresent()) {
            double rate = next.getAsDouble();
            search.record(new RateStep(rate, 200, 0, rate <= knee ? 5 : 50, false));
        }
        return search;
    }

    private static SizeResult size(double direct, double gateway, double nginx) {
        return new SizeResult(OverheadBenchmark.SINGLE_HOP, 256, List.of(
                new TargetResult(OverheadBenchmark.DIRECT, null, searched(direct)),
                new TargetResult(OverheadBenchmark.GATEWAY, null, searched(gateway)),
                new TargetResult(OverheadBenchmark.NGINX, null, searched(nginx))));
    }

    @Test
    void statesTheCommonLimitOnce_andNoRigWarningWhenDirectIsFastest() {
        String text = OverheadReport.limit(size(1000, 100, 600));

        assertThat(text).contains("TTFT p99 <= 6.000 ms, twice the median of direct's round p99s")
                .doesNotContain("rig limit");
    }

    @Test
    void aDirectPathNoFasterThanAProxy_isReportedAsTheRigsCeiling() {
        String text = OverheadReport.limit(size(300, 100, 300));

        assertThat(text).contains("rig limit").contains("no more than nginx's").doesNotContain("pd-gateway's");
    }

    @Test
    void aPdRun_isJudgedAgainstTheClientRunningBothLegs() {
        SizeResult pd = new SizeResult(PdOverheadBenchmark.scenario("vllm"), 256, List.of(
                new TargetResult(PdOverheadBenchmark.CLIENT_LEGS, null, searched(300)),
                new TargetResult(OverheadBenchmark.GATEWAY, null, searched(400))));

        assertThat(OverheadReport.limit(pd)).contains("twice the median of client legs's round p99s")
                .contains("rig limit: client legs sustained").contains("no more than pd-gateway's");
    }

    @Test
    void theProxiesCpuPerRequest_isReportedWithTheirIdleCpuAndTheirRatio() {
        OverheadSettings settings = new OverheadSettings(List.of(256), 32, 40, 0, 400, 0, 3, 6, 80, 3200, 8, 4, 10_000,
                null, false, List.of());
        SizeResult size = new SizeResult(OverheadBenchmark.SINGLE_HOP, 256, List.of(
                new TargetResult(OverheadBenchmark.DIRECT, null, null),
                new TargetResult(OverheadBenchmark.GATEWAY, null, null, new ProxyCpu(400, 25, 31.5, 375), List.of()),
                new TargetResult(OverheadBenchmark.NGINX, null, null, new ProxyCpu(200, 0, 0, 200), List.of())));

        assertThat(OverheadReport.cpu(size, settings)).isEqualTo("proxy CPU a request at 40 req/s (median of the "
                + "rounds): pd-gateway 400 µs (compiling 25 of it; idle 31.5 ms/s), nginx 200 µs (compiling 0 of it; "
                + "idle 0.0 ms/s); pd-gateway / nginx x2.00\n");
        assertThat(OverheadReport.cpu(size(300, 100, 300), settings)).isEmpty();
    }

    @Test
    void theHostsCpuARequest_isReportedForEveryTarget_andEachStepsBusyCores() {
        OverheadSettings settings = new OverheadSettings(List.of(256), 32, 40, 0, 400, 0, 3, 6, 80, 3200, 8, 4, 10_000,
                null, false, List.of());
        RateSearch search = new RateSearch(DIRECT_P99, 40, 80, 1, 0.1);
        search.next();
        search.record(new RateStep(40, 160, 0, 2.5, false, Double.NaN, 1.96));
        SizeResult size = new SizeResult(PdOverheadBenchmark.scenario("vllm"), 256, List.of(
                new TargetResult(PdOverheadBenchmark.CLIENT_LEGS, null, search, ProxyCpu.NONE, List.of(), 1_200,
                        Wakeups.UNKNOWN),
                new TargetResult(OverheadBenchmark.GATEWAY, null, null, new ProxyCpu(600, 0, 5, 600), List.of(),
                        1_850, Wakeups.UNKNOWN)));

        assertThat(OverheadReport.cpu(size, settings)).startsWith("host CPU a request at 40 req/s (every process on "
                + "it, median of the rounds): client legs 1200 µs, pd-gateway 1850 µs\nproxy CPU a request");
        assertThat(OverheadReport.steps(size)).contains("40: 2.5 + 1.96c");
        assertThat(OverheadReport.cpu(size(300, 100, 300), settings)).isEmpty();
    }

    @Test
    void eachProxysScheduling_isReportedPerRequestAndPerTimeOnACore_andOnlyWhereItIsKnown() {
        OverheadSettings settings = new OverheadSettings(List.of(256), 32, 80, 0, 400, 0, 3, 6, 80, 3200, 8, 4, 10_000,
                null, false, List.of());
        Wakeups gateway = new Wakeups(220_000_000, 92_000_000, 1_000, 0).since(Wakeups.ZERO, 250);
        Wakeups nginx = new Wakeups(58_000_000, 59_000_000, 1_000, 0).since(Wakeups.ZERO, 200);
        SizeResult size = new SizeResult("single hop", 256, List.of(
                new TargetResult(OverheadBenchmark.DIRECT, null, null),
                new TargetResult(OverheadBenchmark.GATEWAY, null, null, ProxyCpu.NONE, List.of(), Double.NaN, gateway),
                new TargetResult(OverheadBenchmark.NGINX, null, null, ProxyCpu.NONE, List.of(), Double.NaN, nginx)));

        assertThat(OverheadReport.wakeups(size, settings)).isEqualTo("proxy threads put on a core at 80 req/s (the JIT "
                + "compiler's left out, the rounds pooled): pd-gateway 4.0 a request, each 92 µs waiting and 220 µs "
                + "running; nginx 5.0 a request, each 59 µs waiting and 58 µs running\n");
        assertThat(OverheadReport.wakeups(size(300, 100, 300), settings)).isEmpty();
    }

    @Test
    void aGatewayVariantsCpu_isSetAgainstTheDeployedGateways_withAndWithoutItsCompiler() {
        OverheadSettings settings = new OverheadSettings(List.of(256), 32, 40, 0, 400, 0, 3, 6, 80, 3200, 8, 4, 10_000,
                null, false, List.of(GatewayVariant.parse("heap=-Xms1g -Xmx1g")));
        SizeResult size = new SizeResult(OverheadBenchmark.SINGLE_HOP, 256, List.of(
                new TargetResult(OverheadBenchmark.DIRECT, null, null),
                new TargetResult(OverheadBenchmark.GATEWAY, null, null, new ProxyCpu(400, 100, 10, 300), List.of()),
                new TargetResult("pd-gateway:heap", null, null, new ProxyCpu(330, 60, 10, 270), List.of())));

        assertThat(OverheadReport.cpu(size, settings)).endsWith("; pd-gateway:heap / pd-gateway x0.83, without "
                + "compiling x0.90\n");
        // outside the compiler, the rounds' own differences when the measurement has them
        SizeResult rounds = new SizeResult(OverheadBenchmark.SINGLE_HOP, 256, List.of(
                new TargetResult(OverheadBenchmark.DIRECT, null, null),
                new TargetResult(OverheadBenchmark.GATEWAY, null, null, new ProxyCpu(400, 100, 10, 320), List.of()),
                new TargetResult("pd-gateway:heap", null, null, new ProxyCpu(330, 60, 10, 320), List.of())));
        assertThat(OverheadReport.cpu(rounds, settings)).endsWith("without compiling x1.00\n");
    }

    @Test
    void aGatewayVariant_isANameAndAtLeastOneJvmOptionOrSetting() {
        GatewayVariant variant = GatewayVariant.parse(" g1-fixed = -Xms2g  -Xmx2g ");

        assertThat(variant.target()).isEqualTo("pd-gateway:g1-fixed");
        assertThat(variant.jvmOptions()).containsExactly("-Xms2g", "-Xmx2g");
        assertThat(variant.settings()).isEmpty();
        GatewayVariant setting = GatewayVariant.parse("loops=PD_GATEWAY_EVENT_LOOPS=1 -Dflag=a=b ROUTING_ALGORITHM=pd");
        assertThat(setting.settings()).containsExactly(Map.entry("PD_GATEWAY_EVENT_LOOPS", "1"),
                Map.entry("ROUTING_ALGORITHM", "pd"));
        assertThat(setting.jvmOptions()).containsExactly("-Dflag=a=b");
        assertThat(setting.describe()).isEqualTo("-Dflag=a=b PD_GATEWAY_EVENT_LOOPS=1 ROUTING_ALGORITHM=pd");
        for (String bad : List.of("-Xms2g", "heap=", "Heap=-Xms2g", "=-Xms2g", "a very long variant name=-Xms2g")) {
            assertThatThrownBy(() -> GatewayVariant.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void eachRoundsP99_isListed_andTheMedianAddsToTheReferencesMedian() {
        SizeResult size = new SizeResult(OverheadBenchmark.SINGLE_HOP, 51200, List.of(
                new TargetResult(OverheadBenchmark.DIRECT, null, null, ProxyCpu.NONE, List.of(25.5, 24.0, 30.0)),
                new TargetResult(OverheadBenchmark.GATEWAY, null, null, ProxyCpu.NONE, List.of(28.0, 1819.0, 27.0)),
                new TargetResult(OverheadBenchmark.NGINX, null, null, ProxyCpu.NONE, List.of(26.0, 26.5, 41.0))));

        assertThat(OverheadReport.rounds(size)).isEqualTo("TTFT p99 by round, ms: direct 25.5 / 24.0 / 30.0 (median "
                + "25.50), pd-gateway 28.0 / 1819.0 / 27.0 (median 28.00, added 2.50), "
                + "nginx 26.0 / 26.5 / 41.0 (median 26.50, added 1.00)\n");
        assertThat(OverheadReport.rounds(size(300, 100, 300))).isEmpty();
    }

    @Test
    void everyTargetAtTheTopRate_isReportedAsTheRigsCeiling() {
        String text = OverheadReport.limit(size(5000, 5000, 5000));

        assertThat(text).contains("every target sustained the search's top rate");
    }
}
