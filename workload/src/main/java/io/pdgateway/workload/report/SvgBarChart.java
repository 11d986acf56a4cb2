package io.pdgateway.workload.report;

import java.util.List;
import java.util.Locale;

/**
 * Horizontal grouped bars as inline SVG (one group per label, one bar per series), with each bar's value written at
 * its end: no script, no external file, readable in any browser or offline. {@link SvgLineChart} draws lines.
 */
public final class SvgBarChart {
    private static final int WIDTH = 760;
    private static final int LABEL_WIDTH = 250;
    private static final int BAR_HEIGHT = 12;

    /** One named series of values, aligned with the chart's labels; a NaN value draws no bar. */
    public record Series(String name, double[] values) {}

    private SvgBarChart() {}

    public static String render(String title, List<String> labels, List<Series> series, String unit) {
        double max = 0;
        for (Series s : series) {
            for (double v : s.values()) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        max = max <= 0 ? 1 : max;
        int group = series.size() * BAR_HEIGHT + 8;
        int height = 40 + labels.size() * group + 24;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' "
                + "width='%d' height='%d' font-family='sans-serif' font-size='11'><text x='4' y='16' font-size='14' "
                + "font-weight='bold'>%s</text>", WIDTH, height, Html.escape(title)));
        int plot = WIDTH - LABEL_WIDTH - 80;
        for (int i = 0; i < labels.size(); i++) {
            int y = 34 + i * group;
            svg.append(text(LABEL_WIDTH - 6, y + group / 2, "end", Html.escape(labels.get(i))));
            for (int s = 0; s < series.size(); s++) {
                double v = series.get(s).values()[i];
                int w = Double.isNaN(v) ? 0 : (int) Math.round(v / max * plot);
                int by = y + s * BAR_HEIGHT;
                svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>",
                        LABEL_WIDTH, by, w, BAR_HEIGHT - 2, ChartColours.of(s)));
                svg.append(text(LABEL_WIDTH + w + 4, by + BAR_HEIGHT - 3, "start",
                        Double.isNaN(v) ? "-" : format(v) + " " + unit));
            }
        }
        legend(svg, series.stream().map(Series::name).toList(), height - 14);
        return svg.append("</svg>").toString();
    }

    private static void legend(StringBuilder svg, List<String> names, int y) {
        int x = 8;
        for (int i = 0; i < names.size(); i++) {
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='10' height='10' fill='%s'/>", x, y - 9,
                    ChartColours.of(i)));
            svg.append(text(x + 14, y, "start", Html.escape(names.get(i))));
            x += 22 + 7 * names.get(i).length();
            if (x > WIDTH - 120) {
                x = 8;
                y += 14;
            }
        }
    }

    private static String text(int x, int y, String anchor, String body) {
        return String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='%s'>%s</text>", x, y, anchor, body);
    }

    /** Three significant digits below 100, whole numbers above: a bar's label, not a measurement's precision. */
    static String format(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }
}
