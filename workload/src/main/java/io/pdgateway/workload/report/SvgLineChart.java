package io.pdgateway.workload.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG, with axes, ticks and a legend: no script, no external file, so a report page opens
 * anywhere, offline, years later. The x axis can be logarithmic (latency CDFs span microseconds to seconds).
 */
public final class SvgLineChart {
    static final int WIDTH = 820;
    static final int HEIGHT = 340;
    static final int LEFT = 64;
    static final int TOP = 34;
    static final int PLOT_WIDTH = 560;
    static final int PLOT_HEIGHT = 250;
    /** About this many ticks per axis: enough to read a value off, few enough to stay legible. */
    static final int TARGET_TICKS = 6;

    /** One line: its name for the legend and its points (x, y); points with a NaN are skipped. */
    public record Series(String name, List<double[]> points) {
        public Series {
            points = List.copyOf(points);
        }
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final List<Series> series = new ArrayList<>();

    public SvgLineChart(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    public SvgLineChart add(Series line) {
        series.add(line);
        return this;
    }

    public String render() {
        double[] xs = range(0);
        double[] ys = range(1);
        if (logX) {
            xs = new double[] {Math.max(xs[0], 1e-3), Math.max(xs[1], Math.max(xs[0], 1e-3) * 10)};
        }
        ys[0] = Math.min(0, ys[0]);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, HEIGHT,
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                LEFT, Html.escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#999\"/>%n", LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT));
        List<Double> xTicks = logX ? logTicks(xs) : linearTicks(xs);
        List<Double> yTicks = linearTicks(ys);
        if (!logX && !xTicks.isEmpty()) {
            xs = new double[] {Math.min(xs[0], xTicks.get(0)), Math.max(xs[1], xTicks.get(xTicks.size() - 1))};
        }
        ys = new double[] {Math.min(ys[0], yTicks.get(0)), Math.max(ys[1], yTicks.get(yTicks.size() - 1))};
        for (double tick : xTicks) {
            double x = xPixel(tick, xs);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e5e5e5\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, TOP, x, TOP + PLOT_HEIGHT, x,
                    TOP + PLOT_HEIGHT + 14, label(tick)));
        }
        for (double tick : yTicks) {
            double y = yPixel(tick, ys);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, y, LEFT + PLOT_WIDTH, y, LEFT - 6,
                    y + 4, label(tick)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + PLOT_WIDTH / 2, TOP + PLOT_HEIGHT + 32, Html.escape(xLabel + (logX ? " (log scale)" : ""))));
        svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 14 %d)\">%s</text>%n", TOP + PLOT_HEIGHT / 2, TOP + PLOT_HEIGHT / 2,
                Html.escape(yLabel)));
        for (int i = 0; i < series.size(); i++) {
            String colour = ChartColours.of(i);
            svg.append(polyline(series.get(i), colour, xs, ys));
            int legendY = TOP + 10 + i * 16;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + PLOT_WIDTH + 12, legendY,
                    LEFT + PLOT_WIDTH + 30, legendY, colour, LEFT + PLOT_WIDTH + 36, legendY + 4,
                    Html.escape(series.get(i).name())));
        }
        return svg.append("</svg>\n").toString();
    }

    private String polyline(Series line, String colour, double[] xs, double[] ys) {
        StringBuilder points = new StringBuilder();
        for (double[] p : line.points()) {
            if (Double.isNaN(p[0]) || Double.isNaN(p[1]) || (logX && p[0] <= 0)) {
                continue;
            }
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", xPixel(p[0], xs), yPixel(p[1], ys)));
        }
        return String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"%s\">"
                + "<title>%s</title></polyline>%n", colour, points.toString().trim(), Html.escape(line.name()));
    }

    private double xPixel(double x, double[] range) {
        double share = logX ? (Math.log10(x) - Math.log10(range[0])) / (Math.log10(range[1]) - Math.log10(range[0]))
                : (x - range[0]) / (range[1] - range[0]);
        return LEFT + clamp(share) * PLOT_WIDTH;
    }

    private static double yPixel(double y, double[] range) {
        return TOP + PLOT_HEIGHT - clamp((y - range[0]) / (range[1] - range[0])) * PLOT_HEIGHT;
    }

    private static double clamp(double share) {
        return Double.isNaN(share) ? 0 : Math.max(0, Math.min(1, share));
    }

    /** Smallest and largest value of one coordinate over the points that are drawn ({0, 1} when there is none). */
    private double[] range(int axis) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Series line : series) {
            for (double[] p : line.points()) {
                double v = p[axis];
                boolean drawn = Double.isFinite(p[0]) && Double.isFinite(p[1]) && !(logX && p[0] <= 0);
                if (drawn) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        if (min > max) {
            return new double[] {0, 1};
        }
        return max > min ? new double[] {min, max} : new double[] {min, min + Math.max(1, Math.abs(min))};
    }

    /** Ticks at 1, 2 or 5 times a power of ten, covering the range. */
    static List<Double> linearTicks(double[] range) {
        double span = range[1] - range[0];
        double raw = span / TARGET_TICKS;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double ratio = raw / magnitude;
        double step = (ratio <= 1 ? 1 : ratio <= 2 ? 2 : ratio <= 5 ? 5 : 10) * magnitude;
        List<Double> ticks = new ArrayList<>();
        double first = Math.floor(range[0] / step) * step;
        for (double t = first; t <= range[1] + step * 0.999 && ticks.size() <= 2 * TARGET_TICKS + 2; t += step) {
            ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
        }
        return ticks;
    }

    /** One tick per power of ten within the range, and at 2 and 5 times each when it spans less than two decades. */
    static List<Double> logTicks(double[] range) {
        boolean narrow = range[1] / range[0] < 100;
        double[] steps = narrow ? new double[] {1, 2, 5} : new double[] {1};
        List<Double> ticks = new ArrayList<>();
        for (int e = (int) Math.floor(Math.log10(range[0])); e <= Math.ceil(Math.log10(range[1])); e++) {
            for (double step : steps) {
                double t = step * Math.pow(10, e);
                if (t >= range[0] * 0.999 && t <= range[1] * 1.001) {
                    ticks.add(t);
                }
            }
        }
        return ticks;
    }

    private static String label(double value) {
        if (value != 0 && (Math.abs(value) < 0.01 || Math.abs(value) >= 1e6)) {
            return String.format(Locale.ROOT, "%.0e", value);
        }
        if (value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "");
    }
}
