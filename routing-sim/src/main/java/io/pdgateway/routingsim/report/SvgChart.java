package io.pdgateway.routingsim.report;

import java.util.List;
import java.util.Locale;

/** Inline SVG charts for the HTML report: no script, no external file, readable in any browser or offline. */
final class SvgChart {
    static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
        "#ff9da7", "#9c755f", "#bab0ac"};
    private static final int WIDTH = 760;
    private static final int LABEL_WIDTH = 250;
    private static final int BAR_HEIGHT = 12;

    /** One named series of values, aligned with the chart's labels. */
    record Series(String name, double[] values) {}

    private SvgChart() {}

    /** Horizontal grouped bars: one group per label, one bar per series. */
    static String bars(String title, List<String> labels, List<Series> series, String unit) {
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
        StringBuilder svg = header(title, height);
        int plot = WIDTH - LABEL_WIDTH - 80;
        for (int i = 0; i < labels.size(); i++) {
            int y = 34 + i * group;
            svg.append(text(LABEL_WIDTH - 6, y + group / 2, "end", escape(labels.get(i))));
            for (int s = 0; s < series.size(); s++) {
                double v = series.get(s).values()[i];
                int w = Double.isNaN(v) ? 0 : (int) Math.round(v / max * plot);
                int by = y + s * BAR_HEIGHT;
                svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>",
                        LABEL_WIDTH, by, w, BAR_HEIGHT - 2, PALETTE[s % PALETTE.length]));
                svg.append(text(LABEL_WIDTH + w + 4, by + BAR_HEIGHT - 3, "start",
                        Double.isNaN(v) ? "-" : format(v) + " " + unit));
            }
        }
        legend(svg, series.stream().map(Series::name).toList(), height - 14);
        return svg.append("</svg>").toString();
    }

    /** Cumulative distributions on a log latency axis: one line per policy through its 1st..99th percentiles. */
    static String cdf(String title, List<String> names, List<double[]> percentiles, String unit) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (double[] p : percentiles) {
            for (double v : p) {
                if (v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        if (max <= 0) {
            return "";
        }
        double lo = Math.log10(min);
        double hi = Math.max(lo + 1e-9, Math.log10(max));
        int height = 320;
        int left = 60;
        int plotW = WIDTH - left - 20;
        int plotH = height - 90;
        StringBuilder svg = header(title, height);
        svg.append(String.format(Locale.ROOT, "<rect x='%d' y='30' width='%d' height='%d' fill='none' stroke='#ccc'/>",
                left, plotW, plotH));
        for (int decade = (int) Math.ceil(lo); decade <= Math.floor(hi); decade++) {
            int x = left + (int) Math.round((decade - lo) / (hi - lo) * plotW);
            svg.append(String.format(Locale.ROOT, "<line x1='%d' y1='30' x2='%d' y2='%d' stroke='#eee'/>", x, x,
                    30 + plotH));
            svg.append(text(x, 30 + plotH + 14, "middle", format(Math.pow(10, decade)) + " " + unit));
        }
        for (int q : new int[] {50, 90, 99}) {
            int y = 30 + plotH - (int) Math.round(q / 100.0 * plotH);
            svg.append(text(left - 4, y + 4, "end", "p" + q));
        }
        for (int s = 0; s < percentiles.size(); s++) {
            double[] p = percentiles.get(s);
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < p.length; i++) {
                if (p[i] <= 0) {
                    continue;
                }
                int x = left + (int) Math.round((Math.log10(p[i]) - lo) / (hi - lo) * plotW);
                int y = 30 + plotH - (int) Math.round((i + 1) / 100.0 * plotH);
                points.append(x).append(',').append(y).append(' ');
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill='none' stroke-width='2' stroke='%s' points='%s'/>",
                    PALETTE[s % PALETTE.length], points.toString().trim()));
        }
        legend(svg, names, height - 28);
        return svg.append("</svg>").toString();
    }

    private static StringBuilder header(String title, int height) {
        return new StringBuilder(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' "
                + "height='%d' font-family='sans-serif' font-size='11'><text x='4' y='16' font-size='14' "
                + "font-weight='bold'>%s</text>", WIDTH, height, escape(title)));
    }

    private static void legend(StringBuilder svg, List<String> names, int y) {
        int x = 8;
        for (int i = 0; i < names.size(); i++) {
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='10' height='10' fill='%s'/>", x, y - 9,
                    PALETTE[i % PALETTE.length]));
            svg.append(text(x + 14, y, "start", escape(names.get(i))));
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

    static String format(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
    }
}
