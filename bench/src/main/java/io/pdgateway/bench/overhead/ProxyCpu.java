package io.pdgateway.bench.overhead;

/**
 * What a proxy's process spent in CPU: per request over the fixed-rate rounds (the median of the rounds'), the part of
 * it its JIT compiler took, and what it spends with nothing sent. NaN where unknown or for a target without a process
 * of its own (the pod, a client running both legs).
 */
public record ProxyCpu(double microsPerRequest, double compilerMicrosPerRequest, double idleMillisPerSecond) {
    public static final ProxyCpu NONE = new ProxyCpu(Double.NaN, Double.NaN, Double.NaN);

    public boolean known() {
        return !Double.isNaN(microsPerRequest);
    }
}
