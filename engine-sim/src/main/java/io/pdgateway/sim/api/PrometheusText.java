package io.pdgateway.sim.api;

import io.pdgateway.sim.Histogram;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Writes the Prometheus text exposition format (version 0.0.4) by hand: the simulator exports a handful of
 * series, which needs no metrics library. Every sample carries the same base labels.
 */
public final class PrometheusText {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder();
    private final String baseLabels;

    /** @param baseLabels label pairs already rendered, e.g. {@code model_name="m",engine="0"} */
    public PrometheusText(String baseLabels) {
        this.baseLabels = baseLabels;
    }

    public static String label(String name, String value) {
        return name + "=\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    public PrometheusText gauge(String name, String help, double value) {
        header(name, help, "gauge");
        sample(name, "", value);
        return this;
    }

    /**
     * An info metric as Python's prometheus_client writes vLLM's: a gauge at 1 whose labels carry the facts, and only
     * those labels (not the base ones).
     *
     * @param labels label pairs already rendered ({@link #label}), comma-separated
     */
    public PrometheusText info(String name, String help, String labels) {
        header(name, help, "gauge");
        out.append(name).append('{').append(labels).append("} ").append(number(1)).append('\n');
        return this;
    }

    /** A counter; {@code name} carries the {@code _total} suffix. */
    public PrometheusText counter(String name, String help, double value) {
        header(name, help, "counter");
        sample(name, "", value);
        return this;
    }

    /** One counter with a sample per value of {@code label}. */
    public PrometheusText counters(String name, String help, String label, Map<String, Long> values) {
        header(name, help, "counter");
        values.forEach((key, value) -> sample(name, "," + label(label, key), value));
        return this;
    }

    public PrometheusText histogram(String name, String help, Histogram histogram) {
        header(name, help, "histogram");
        double[] bounds = histogram.bounds();
        for (int i = 0; i < bounds.length; i++) {
            sample(name + "_bucket", "," + label("le", number(bounds[i])), histogram.cumulative(i));
        }
        sample(name + "_bucket", "," + label("le", "+Inf"), histogram.count());
        sample(name + "_count", "", histogram.count());
        sample(name + "_sum", "", histogram.sum());
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void header(String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private void sample(String name, String extraLabels, double value) {
        out.append(name).append('{').append(baseLabels).append(extraLabels).append("} ")
                .append(number(value)).append('\n');
    }

    /** Plain decimal notation, as Python's prometheus_client prints: {@code 3.0}, {@code 0.001}, never 1.0E-4. */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return (long) value + ".0";
        }
        return BigDecimal.valueOf(value).toPlainString();
    }
}
