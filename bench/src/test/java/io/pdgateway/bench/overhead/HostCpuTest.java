package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The host's CPU from /proc/stat: what counts as busy, how many cores a step kept busy, its CPU a request. */
class HostCpuTest {
    private static List<String> stat(String total) {
        return List.of("cpu  " + total, "cpu0 1 2 3 4 5 6 7 8 0 0", "cpu1 1 2 3 4 5 6 7 8 0 0", "intr 12345 0 0",
                "ctxt 999");
    }

    @Test
    void busyTime_isUserNiceSystemIrqAndSoftirq_notIdleIowaitOrSteal() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        HostCpu cpu = HostCpu.parse(stat("100 10 50 800 20 5 15 40 30 0"));

        assertThat(cpu.busyTicks()).isEqualTo(100 + 10 + 50 + 5 + 15);
        assertThat(cpu.totalTicks()).isEqualTo(180 + 800 + 20 + 40);
        assertThat(cpu.cpus()).isEqualTo(2);
    }

    @Test
    void aStepsCoresBusy_andItsCpuARequest_comeFromTheDifference() {
        HostCpu before = HostCpu.parse(stat("100 0 50 800 0 0 50 0 0 0"));
        // 300 ticks busy and 100 idle later: three quarters of two CPUs
        HostCpu after = HostCpu.parse(stat("300 0 100 900 0 0 100 0 0 0"));

        assertThat(after.coresBusySince(before)).isCloseTo(1.5, within(1e-9));
        // 300 ticks of 10 ms over 1,000 requests: 3 ms each
        assertThat(after.microsPerRequestSince(before, 1_000)).isCloseTo(3_000, within(1e-9));
    }

    @Test
    void anUnreadableHost_orNoRequests_giveNoFigure() {
        HostCpu known = HostCpu.parse(stat("1 0 0 1 0 0 0 0 0 0"));

        assertThat(HostCpu.UNKNOWN.coresBusySince(known)).isNaN();
        assertThat(known.coresBusySince(HostCpu.UNKNOWN)).isNaN();
        assertThat(known.microsPerRequestSince(HostCpu.UNKNOWN, 10)).isNaN();
        assertThat(known.microsPerRequestSince(known, 0)).isNaN();
        assertThat(HostCpu.parse(List.of("intr 1 2 3"))).isEqualTo(HostCpu.UNKNOWN);
    }
}
