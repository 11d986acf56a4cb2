package io.pdgateway.server.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A parser and linter for the Prometheus text exposition format 0.0.4, checking what {@code promtool check metrics}
 * checks: every family has HELP text and a TYPE, declared once and before its samples; metric and label names are
 * valid and snake_case, without abbreviated units; counters end in {@code _total}; only histograms and summaries use the {@code _bucket},
 * {@code _count}, {@code _sum} suffixes and the {@code le} and {@code quantile} labels; base units; no duplicate
 * series; histograms have an {@code le="+Inf"} bucket per series, non-decreasing buckets, and a count equal to it.
 *
 * <p>Hand-written: the Prometheus Java client writes this format but ships no parser, and promtool is a separate
 * binary that may be missing ({@link Promtool} runs it where it is installed).
 */
public final class ExpositionLint {
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    /** promtool's non-base units and the base unit it asks for instead. */
    private static final Map<String, String> NON_BASE_UNITS = Map.of("milliseconds", "seconds", "microseconds",
            "seconds", "nanoseconds", "seconds", "minutes", "seconds", "hours", "seconds", "days", "seconds",
            "kilobytes", "bytes", "megabytes", "bytes", "gigabytes", "bytes", "celsius", "kelvin");
    /** Abbreviated units promtool rejects as a word of a metric name. */
    private static final Set<String> UNIT_ABBREVIATIONS = Set.of("s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb",
            "tb", "pb", "m", "h", "d");

    /** One sample line: its name as written, its labels in order, its value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    /** A metric family: HELP, TYPE and the samples that belong to it. */
    public record Family(String name, String type, String help, List<Sample> samples) {
        /** Every label name used by the family's samples ({@code le} and {@code quantile} included). */
        public Set<String> labelNames() {
            Set<String> names = new HashSet<>();
            samples.forEach(s -> names.addAll(s.labels().keySet()));
            return names;
        }
    }

    private final Map<String, Family> families = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    private ExpositionLint() {}

    /** Parses and checks {@code text}; the problems are in {@link #problems()}. */
    public static ExpositionLint check(String text) {
        ExpositionLint lint = new ExpositionLint();
        lint.parse(text);
        lint.families.values().forEach(lint::checkFamily);
        return lint;
    }

    public List<String> problems() {
        return problems;
    }

    public Map<String, Family> families() {
        return families;
    }

    /** Every series, as name plus sorted labels: the identity a scrape stores. */
    public Set<String> seriesKeys() {
        Set<String> keys = new HashSet<>();
        for (Family family : families.values()) {
            for (Sample sample : family.samples()) {
                keys.add(sample.name() + new TreeMap<>(sample.labels()));
            }
        }
        return keys;
    }

    /** The family a sample name belongs to (a histogram's {@code _bucket} belongs to the histogram), or null. */
    public Family familyOf(String sampleName) {
        Family exact = families.get(sampleName);
        if (exact != null) {
            return exact;
        }
        for (String suffix : List.of("_bucket", "_count", "_sum")) {
            if (sampleName.endsWith(suffix)) {
                Family base = families.get(sampleName.substring(0, sampleName.length() - suffix.length()));
                if (base != null && (base.type().equals("histogram") || base.type().equals("summary"))) {
                    return base;
                }
            }
        }
        return null;
    }

    private void parse(String text) {
        Map<String, String> helps = new HashMap<>();
        Map<String, String> types = new HashMap<>();
        Set<String> closed = new HashSet<>();
        String current = null;
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ", 4);
                if (parts.length >= 3 && (parts[1].equals("HELP") || parts[1].equals("TYPE"))) {
                    String name = parts[2];
                    String rest = parts.length == 4 ? parts[3] : "";
                    if (!name.equals(current) && current != null) {
                        closed.add(current);
                    }
                    if (closed.contains(name)) {
                        problems.add("line " + lineNumber + ": " + name + " declared again after its samples");
                    }
                    current = name;
                    Map<String, String> target = parts[1].equals("HELP") ? helps : types;
                    if (target.put(name, rest) != null) {
                        problems.add("line " + lineNumber + ": second " + parts[1] + " line for " + name);
                    }
                    if (parts[1].equals("TYPE") && !TYPES.contains(rest)) {
                        problems.add("line " + lineNumber + ": unknown type " + rest + " for " + name);
                    }
                    families.computeIfAbsent(name, n -> new Family(n, "untyped", "", new ArrayList<>()));
                    families.computeIfPresent(name, (n, f) -> new Family(n, types.getOrDefault(n, "untyped"),
                            helps.getOrDefault(n, ""), f.samples()));
                }
                continue;
            }
            Sample sample = sample(line, lineNumber);
            if (sample == null) {
                continue;
            }
            Family family = familyOf(sample.name());
            if (family == null) {
                problems.add("line " + lineNumber + ": " + sample.name() + " has no HELP or TYPE before it");
                family = new Family(sample.name(), "untyped", "", new ArrayList<>());
                families.put(sample.name(), family);
            }
            if (current != null && !family.name().equals(current)) {
                problems.add("line " + lineNumber + ": " + sample.name() + " is not next to the rest of "
                        + family.name());
            }
            family.samples().add(sample);
        }
    }

    /** One sample line, or null (with a problem recorded) when it does not parse. */
    private Sample sample(String line, int lineNumber) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        if (!METRIC_NAME.matcher(name).matches()) {
            problems.add("line " + lineNumber + ": invalid metric name " + quote(name));
            return null;
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (i < line.length() && line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                    problems.add("line " + lineNumber + ": malformed labels in " + quote(line));
                    return null;
                }
                String label = line.substring(i, eq);
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                while (j < line.length() && line.charAt(j) != '"') {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char next = j + 1 < line.length() ? line.charAt(j + 1) : ' ';
                        if (next != '\\' && next != '"' && next != 'n') {
                            problems.add("line " + lineNumber + ": invalid escape \\" + next + " in label " + label);
                        }
                        value.append(next == 'n' ? '\n' : next);
                        j += 2;
                    } else {
                        value.append(c);
                        j++;
                    }
                }
                if (j >= line.length()) {
                    problems.add("line " + lineNumber + ": unterminated label value in " + quote(line));
                    return null;
                }
                if (!LABEL_NAME.matcher(label).matches() || label.startsWith("__")) {
                    problems.add("line " + lineNumber + ": invalid label name " + quote(label) + " on " + name);
                }
                if (labels.put(label, value.toString()) != null) {
                    problems.add("line " + lineNumber + ": label " + label + " twice on " + name);
                }
                i = j + 1;
                if (i < line.length() && line.charAt(i) == ',') {
                    i++;
                }
            }
            i++;
        }
        String[] rest = line.substring(Math.min(i, line.length())).trim().split(" ");
        if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty()) {
            problems.add("line " + lineNumber + ": expected a value (and a timestamp) in " + quote(line));
            return null;
        }
        double value;
        try {
            value = switch (rest[0]) {
                case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> Double.parseDouble(rest[0]);
            };
        } catch (NumberFormatException e) {
            problems.add("line " + lineNumber + ": value " + quote(rest[0]) + " is not a number");
            return null;
        }
        return new Sample(name, labels, value);
    }

    private void checkFamily(Family family) {
        String name = family.name();
        if (family.help().isBlank()) {
            problems.add(name + ": no help text");
        }
        if (family.type().equals("untyped")) {
            problems.add(name + ": no TYPE");
        }
        if (!name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
            problems.add(name + ": metric names should be written in snake_case, not camelCase");
        }
        if (name.contains(":")) {
            problems.add(name + ": metric names should not contain ':' (reserved for recording rules)");
        }
        for (String type : List.of("counter", "gauge", "histogram", "summary")) {
            if (name.contains("_" + type + "_") || name.endsWith("_" + type)) {
                problems.add(name + ": metric name should not include type '" + type + "'");
            }
        }
        NON_BASE_UNITS.forEach((unit, base) -> {
            if (name.contains(unit)) {
                problems.add(name + ": use base unit \"" + base + "\" instead of \"" + unit + "\"");
            }
        });
        for (String word : name.split("_")) {
            if (UNIT_ABBREVIATIONS.contains(word)) {
                problems.add(name + ": metric names should not contain abbreviated units");
                break;
            }
        }
        boolean histogram = family.type().equals("histogram");
        boolean summary = family.type().equals("summary");
        if (family.type().equals("counter") && !name.endsWith("_total")) {
            problems.add(name + ": counter metrics should have \"_total\" suffix");
        }
        if (!histogram && !summary) {
            for (String suffix : List.of("_bucket", "_count", "_sum")) {
                if (name.endsWith(suffix)) {
                    problems.add(name + ": non-histogram and non-summary metrics should not have \"" + suffix
                            + "\" suffix");
                }
            }
        }
        Set<String> seen = new HashSet<>();
        for (Sample sample : family.samples()) {
            String key = sample.name() + new TreeMap<>(sample.labels());
            if (!seen.add(key)) {
                problems.add(name + ": duplicate series " + key);
            }
            for (String label : sample.labels().keySet()) {
                if (!label.equals(label.toLowerCase(java.util.Locale.ROOT))) {
                    problems.add(name + ": label names should be written in snake_case, not camelCase: " + label);
                }
            }
            if (!histogram && sample.labels().containsKey("le")) {
                problems.add(name + ": non-histogram metrics should not have \"le\" label");
            }
            if (!summary && sample.labels().containsKey("quantile")) {
                problems.add(name + ": non-summary metrics should not have \"quantile\" label");
            }
        }
        if (histogram) {
            checkHistogram(family);
        }
    }

    /** Per label set: an +Inf bucket, non-decreasing cumulative buckets, a _count equal to the +Inf bucket. */
    private void checkHistogram(Family family) {
        Map<Map<String, String>, TreeMap<Double, Double>> buckets = new HashMap<>();
        Map<Map<String, String>, Double> counts = new HashMap<>();
        for (Sample sample : family.samples()) {
            Map<String, String> labels = new TreeMap<>(sample.labels());
            if (sample.name().equals(family.name() + "_bucket")) {
                String le = labels.remove("le");
                if (le == null) {
                    problems.add(family.name() + ": bucket without le " + sample.labels());
                    continue;
                }
                double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
                buckets.computeIfAbsent(labels, l -> new TreeMap<>()).put(bound, sample.value());
            } else if (sample.name().equals(family.name() + "_count")) {
                counts.put(labels, sample.value());
            }
        }
        buckets.forEach((labels, byBound) -> {
            Double inf = byBound.get(Double.POSITIVE_INFINITY);
            if (inf == null) {
                problems.add(family.name() + ": no le=\"+Inf\" bucket for " + labels);
                return;
            }
            double previous = 0;
            for (double cumulative : byBound.values()) {
                if (cumulative < previous) {
                    problems.add(family.name() + ": buckets decrease for " + labels);
                }
                previous = cumulative;
            }
            Double count = counts.get(labels);
            if (count == null || count.doubleValue() != inf.doubleValue()) {
                problems.add(family.name() + ": _count " + count + " differs from the +Inf bucket " + inf + " for "
                        + labels);
            }
        });
    }

    private static String quote(String s) {
        return "'" + (s.length() > 120 ? s.substring(0, 120) + "..." : s) + "'";
    }
}
