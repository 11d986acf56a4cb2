package io.pdgateway.workload.report;

/** The series colours of every chart: ten that stay apart for the usual colour-vision deficiencies (Tableau 10). */
final class ChartColours {
    private static final String[] TABLEAU_10 = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
        "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

    private ChartColours() {}

    /** The colour of the {@code index}-th series; an eleventh series repeats the first colour. */
    static String of(int index) {
        return TABLEAU_10[index % TABLEAU_10.length];
    }
}
