package io.pdgateway.server.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a PromQL expression asks of the metrics it reads: each selector's metric name and the label names its matchers
 * use, and the label names of every {@code by}, {@code without}, {@code on} and {@code ignoring} clause. Enough to
 * check a dashboard's queries against a live /metrics; not a PromQL parser (promtool's {@code check rules} is that).
 *
 * <p>Hand-written: no Java PromQL parser is published on Maven Central.
 */
public final class PromQlSelectors {
    /** Words that are not metric names: aggregation modifiers, set and comparison operators. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "and", "or", "unless", "bool", "offset", "atan2");
    private static final Set<String> LABEL_LISTS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");

    /** One series selector: {@code metric{label="..."}}. */
    public record Selector(String metric, Set<String> matcherLabels) {}

    /** The selectors of an expression and the labels its grouping clauses name. */
    public record Query(List<Selector> selectors, Set<String> groupingLabels) {}

    private final String text;
    private int at;

    private PromQlSelectors(String text) {
        this.text = text;
    }

    public static Query parse(String expression) {
        return new PromQlSelectors(expression).query();
    }

    private Query query() {
        List<Selector> selectors = new ArrayList<>();
        Set<String> grouping = new LinkedHashSet<>();
        while (skipSpace() < text.length()) {
            char c = text.charAt(at);
            if (c == '"' || c == '\'' || c == '`') {
                string();
            } else if (c == '[') {
                at = closing(at, '[', ']') + 1; // a range or subquery: durations, no names
            } else if (Character.isDigit(c) || (c == '.' && at + 1 < text.length()
                    && Character.isDigit(text.charAt(at + 1)))) {
                while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.'
                        || text.charAt(at) == '_')) {
                    at++; // a number or a duration (5m, 1e3)
                }
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                String word = identifier();
                boolean call = skipSpace() < text.length() && (text.charAt(at) == '(' || nextWordIs("by")
                        || nextWordIs("without")); // sum by (x) (...): an aggregation, not a metric
                if (LABEL_LISTS.contains(word)) {
                    if (call) {
                        grouping.addAll(labelList());
                    }
                } else if (call || KEYWORDS.contains(word)) {
                    continue; // a function, or an operator word
                } else {
                    Set<String> labels = new LinkedHashSet<>();
                    if (skipSpace() < text.length() && text.charAt(at) == '{') {
                        labels.addAll(matchers());
                    }
                    selectors.add(new Selector(word, labels));
                }
            } else if (c == '{') {
                throw new IllegalArgumentException("a selector without a metric name at " + at + ": " + text);
            } else {
                at++; // an operator or a parenthesis
            }
        }
        return new Query(selectors, grouping);
    }

    private int skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    private boolean nextWordIs(String word) {
        int end = at + word.length();
        return text.startsWith(word, at) && (end == text.length() || !(Character.isLetterOrDigit(text.charAt(end))
                || text.charAt(end) == '_' || text.charAt(end) == ':'));
    }

    private String identifier() {
        int start = at;
        while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_'
                || text.charAt(at) == ':')) {
            at++;
        }
        return text.substring(start, at);
    }

    private void string() {
        char quote = text.charAt(at++);
        while (at < text.length() && text.charAt(at) != quote) {
            at += text.charAt(at) == '\\' && quote != '`' ? 2 : 1;
        }
        if (at >= text.length()) {
            throw new IllegalArgumentException("unterminated string in " + text);
        }
        at++;
    }

    private int closing(int from, char open, char close) {
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            if (text.charAt(i) == open) {
                depth++;
            } else if (text.charAt(i) == close && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced " + open + " in " + text);
    }

    /** {@code (a, b)} after by, without, on, ignoring, group_left or group_right. */
    private List<String> labelList() {
        int end = closing(at, '(', ')');
        List<String> labels = new ArrayList<>();
        for (String label : text.substring(at + 1, end).split(",")) {
            if (label.isBlank()) {
                continue;
            }
            if (labels.contains(label.strip())) { // a typo for another label, which then goes missing
                throw new IllegalArgumentException("a label list names " + label.strip() + " twice in " + text);
            }
            labels.add(label.strip());
        }
        at = end + 1;
        return labels;
    }

    /** {@code {a="x", b=~"y"}}: the label names. */
    private List<String> matchers() {
        at++; // {
        List<String> labels = new ArrayList<>();
        while (skipSpace() < text.length() && text.charAt(at) != '}') {
            if (text.charAt(at) == ',') {
                at++;
                continue;
            }
            labels.add(identifier());
            skipSpace();
            while (at < text.length() && "=!~".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            skipSpace();
            if (at >= text.length() || "\"'`".indexOf(text.charAt(at)) < 0) {
                throw new IllegalArgumentException("expected a quoted label value at " + at + " in " + text);
            }
            string();
        }
        at++; // }
        return labels;
    }
}
