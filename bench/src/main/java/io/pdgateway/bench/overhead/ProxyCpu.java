package io.pdgateway.bench.overhead;

/**
 * What a proxy's process spent in CPU: per request over the fixed-rate rounds (the median of the rounds'), the part of
 * it its JIT compiler took, what it spends with nothing sent, and per request outside the compiler (the median of the
 * rounds' differences: the two medians before it come from different rounds, and their difference read two identical
 * gateways 8 % apart where the rounds' own differences put them within 0.3 %). NaN where unknown or for a target
 * without a process of its own (the pod, a client running both legs).
 */
public record ProxyCpu(double microsPerRequest, double compilerMicrosPerRequest, double idleMillisPerSecond,
        double outsideCompilerMicrosPerRequest) {
    public static final ProxyCpu NONE = new ProxyCpu(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    public boolean known() {
        return !Double.isNaN(microsPerRequest);
    }
}
