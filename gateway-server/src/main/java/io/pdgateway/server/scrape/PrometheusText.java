package io.pdgateway.server.scrape;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A minimal reader of the Prometheus text exposition format, hand-written because the only maintained Java parsers
 * come with a whole client library: it sums the samples of the requested metric names over all their label sets
 * (a pod serves one model, so the per-label series add up to the pod's value). Comments, unknown names, malformed
 * lines and NaN samples are skipped, never fatal: a scrape must not fail over one odd line.
 */
public final class PrometheusText {
    private PrometheusText() {}

    /** Sum per wanted metric name; names with no valid sample are absent from the result. */
    public static Map<String, Double> sums(String text, Set<String> wanted) {
        Map<String, Double> sums = new HashMap<>();
        int length = text.length();
        int start = 0;
        while (start < length) {
            int end = lineEnd(text, start);
            readLine(text, start, end, wanted, sums);
            start = end + 1;
        }
        return sums;
    }

    private static void readLine(String text, int start, int end, Set<String> wanted, Map<String, Double> sums) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        if (start >= end || text.charAt(start) == '#') {
            return;
        }
        int nameEnd = start;
        while (nameEnd < end && text.charAt(nameEnd) != '{' && !Character.isWhitespace(text.charAt(nameEnd))) {
            nameEnd++;
        }
        String name = wantedName(text, start, nameEnd, wanted);
        if (name == null) {
            return;
        }
        int valueStart = nameEnd;
        if (valueStart < end && text.charAt(valueStart) == '{') {
            valueStart = closingBrace(text, valueStart, end);
            if (valueStart < 0) {
                return;
            }
        }
        while (valueStart < end && Character.isWhitespace(text.charAt(valueStart))) {
            valueStart++;
        }
        int valueEnd = valueStart;
        while (valueEnd < end && !Character.isWhitespace(text.charAt(valueEnd))) {
            valueEnd++;
        }
        try {
            double value = Double.parseDouble(text.subSequence(valueStart, valueEnd).toString());
            if (!Double.isNaN(value)) {
                sums.merge(name, value, Double::sum);
            }
        } catch (NumberFormatException ignored) {
            // a malformed sample: skip the line
        }
    }

    /** Where the line starting at {@code start} ends: its newline, or the end of the text. */
    private static int lineEnd(String text, int start) {
        int newline = text.indexOf('\n', start);
        return newline < 0 ? text.length() : newline;
    }

    /**
     * The wanted name the text holds between {@code start} and {@code end}, or null. Compared in place: an exposition is
     * mostly histogram buckets and other series nobody reads, and none of their names is worth a String.
     */
    private static String wantedName(String text, int start, int end, Set<String> wanted) {
        int length = end - start;
        for (String name : wanted) {
            if (name.length() == length && text.startsWith(name, start)) {
                return name;
            }
        }
        return null;
    }

    /**
     * The labels of the first sample of an info-style metric (e.g. vLLM's {@code cache_config_info}, whose value is 1
     * and whose labels carry the configuration), or an empty map when the text has no such sample.
     */
    public static Map<String, String> labels(String text, String name) {
        int length = text.length();
        int start = 0;
        while (start < length) {
            int end = lineEnd(text, start);
            int nameEnd = start + name.length();
            if (nameEnd < end && text.charAt(nameEnd) == '{' && text.startsWith(name, start)) {
                int close = closingBrace(text, nameEnd, end);
                if (close > 0) {
                    return labelSet(text, nameEnd + 1, close - 1);
                }
            }
            start = end + 1;
        }
        return Map.of();
    }

    /** Parses {@code a="x",b="y"} between from (after '{') and to (at '}'); malformed pairs are skipped. */
    private static Map<String, String> labelSet(CharSequence text, int from, int to) {
        Map<String, String> labels = new HashMap<>();
        int i = from;
        while (i < to) {
            int eq = i;
            while (eq < to && text.charAt(eq) != '=') {
                eq++;
            }
            if (eq + 1 >= to || text.charAt(eq + 1) != '"') {
                break;
            }
            String key = text.subSequence(i, eq).toString().trim();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            while (j < to && text.charAt(j) != '"') {
                if (text.charAt(j) == '\\' && j + 1 < to) {
                    j++;
                }
                value.append(text.charAt(j++));
            }
            labels.put(key, value.toString());
            i = j + 1;
            while (i < to && (text.charAt(i) == ',' || Character.isWhitespace(text.charAt(i)))) {
                i++;
            }
        }
        return labels;
    }

    /** Index just past the '}' closing the label set opened at {@code open}, honouring quoted values; -1 if none. */
    private static int closingBrace(CharSequence text, int open, int end) {
        boolean quoted = false;
        for (int i = open + 1; i < end; i++) {
            char c = text.charAt(i);
            if (quoted && c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == '}' && !quoted) {
                return i + 1;
            }
        }
        return -1;
    }
}
