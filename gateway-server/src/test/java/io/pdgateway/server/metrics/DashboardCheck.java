package io.pdgateway.server.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a Grafana dashboard's PromQL against a live /metrics: every metric a query names has series there, with every
 * label the query's matchers, grouping clauses and legend use; the model variable's {@code label_values} too. Labels
 * that Prometheus adds at scrape time ({@code instance}, {@code job}) are taken as present. Where promtool is installed,
 * {@link #promtoolCheckRules} also has it parse every query. The panels of a collapsed row are checked apart
 * ({@link #problems(Path, ExpositionLint, String)}), against a gateway that runs the feature they show.
 */
public final class DashboardCheck {
    /** Target labels Prometheus attaches to every scraped series; they are not on /metrics itself. */
    private static final Set<String> TARGET_LABELS = Set.of("instance", "job");
    private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,"
            + "\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\)");

    /** One query of a panel, with its legend, and the collapsed row the panel is in ("" for none). */
    public record Target(String row, String panel, String expr, String legend) {}

    private DashboardCheck() {}

    /** The dashboard's queries, Grafana's {@code $__rate_interval} made a plain duration. */
    public static List<Target> targets(Path dashboard) throws IOException {
        JsonNode root = new ObjectMapper().readTree(dashboard.toFile());
        List<Target> targets = new ArrayList<>();
        collect(root.path("panels"), "", targets);
        return targets;
    }

    private static void collect(JsonNode panels, String row, List<Target> into) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                into.add(new Target(row, panel.path("title").asText(), concrete(target.path("expr").asText()),
                        target.path("legendFormat").asText("")));
            }
            collect(panel.path("panels"), panel.path("title").asText(), into);
        }
    }

    private static String concrete(String expr) {
        return expr.replace("$__rate_interval", "5m");
    }

    /** The {@code label_values(metric, label)} queries of the dashboard's variables. */
    public static List<String> variableQueries(Path dashboard) throws IOException {
        JsonNode root = new ObjectMapper().readTree(dashboard.toFile());
        List<String> queries = new ArrayList<>();
        for (JsonNode variable : root.path("templating").path("list")) {
            JsonNode query = variable.path("query");
            String text = query.isObject() ? query.path("query").asText("") : query.asText("");
            if (text.startsWith("label_values")) {
                queries.add(text);
            }
        }
        return queries;
    }

    /**
     * What the dashboard's panels outside collapsed rows, and its variables, ask that {@code metrics} does not have;
     * empty when every query can be answered.
     */
    public static List<String> problems(Path dashboard, ExpositionLint metrics) throws IOException {
        return problems(dashboard, metrics, "");
    }

    /** {@link #problems(Path, ExpositionLint)} for the panels of one collapsed row ("": those outside any). */
    public static List<String> problems(Path dashboard, ExpositionLint metrics, String row) throws IOException {
        List<String> problems = new ArrayList<>();
        for (Target target : targets(dashboard)) {
            if (!target.row().equals(row)) {
                continue;
            }
            String where = "panel \"" + target.panel() + "\": ";
            PromQlSelectors.Query query;
            try {
                query = PromQlSelectors.parse(target.expr());
            } catch (IllegalArgumentException e) {
                problems.add(where + e.getMessage());
                continue;
            }
            if (query.selectors().isEmpty()) {
                problems.add(where + "no metric in " + target.expr());
            }
            Set<String> available = new HashSet<>(TARGET_LABELS);
            for (PromQlSelectors.Selector selector : query.selectors()) {
                Set<String> labels = labelsOf(metrics, selector.metric());
                if (labels == null) {
                    problems.add(where + "no series named " + selector.metric());
                    continue;
                }
                available.addAll(labels);
                for (String label : selector.matcherLabels()) {
                    if (!labels.contains(label) && !TARGET_LABELS.contains(label)) {
                        problems.add(where + selector.metric() + " has no label " + label);
                    }
                }
            }
            for (String label : query.groupingLabels()) {
                if (!available.contains(label)) {
                    problems.add(where + "groups by " + label + ", which none of its metrics has");
                }
            }
            Set<String> legendLabels = query.groupingLabels().isEmpty() ? available
                    : union(query.groupingLabels(), TARGET_LABELS);
            Matcher legend = LEGEND_LABEL.matcher(target.legend());
            while (legend.find()) {
                if (!legendLabels.contains(legend.group(1))) {
                    problems.add(where + "legend names " + legend.group(1) + ", which the query does not keep");
                }
            }
        }
        for (String variable : row.isEmpty() ? variableQueries(dashboard) : List.<String>of()) {
            Matcher m = LABEL_VALUES.matcher(variable);
            if (!m.matches()) {
                problems.add("variable query not understood: " + variable);
                continue;
            }
            Set<String> labels = labelsOf(metrics, m.group(1));
            if (labels == null || !labels.contains(m.group(2))) {
                problems.add("variable " + variable + ": no " + m.group(1) + " series with label " + m.group(2));
            }
        }
        return problems;
    }

    /** The label names of the series named {@code sampleName}, or null when there is none. */
    private static Set<String> labelsOf(ExpositionLint metrics, String sampleName) {
        ExpositionLint.Family family = metrics.familyOf(sampleName);
        if (family == null) {
            return null;
        }
        Set<String> labels = null;
        for (ExpositionLint.Sample sample : family.samples()) {
            if (sample.name().equals(sampleName)) {
                if (labels == null) {
                    labels = new HashSet<>();
                }
                labels.addAll(sample.labels().keySet());
            }
        }
        return labels;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * promtool's verdict on every query, each made a recording rule ({@code promtool check rules}): empty when all
     * parse as PromQL.
     */
    public static String promtoolCheckRules(Path promtool, Path dashboard, Path workDir)
            throws IOException, InterruptedException {
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int n = 0;
        ObjectMapper json = new ObjectMapper();
        for (Target target : targets(dashboard)) {
            rules.append("      - record: dashboard:query_").append(++n).append('\n')
                    .append("        expr: ").append(json.writeValueAsString(target.expr())).append('\n');
        }
        Path file = workDir.resolve("dashboard-rules.yaml");
        Files.writeString(file, rules);
        return Promtool.run(promtool, null, "check", "rules", file.toString());
    }
}
