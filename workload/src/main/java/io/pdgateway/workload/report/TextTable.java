package io.pdgateway.workload.report;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with aligned columns: the first column left-aligned, the rest (numbers) right-aligned. */
public final class TextTable {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(List<String> headers) {
        this.headers = List.copyOf(headers);
    }

    public TextTable row(List<String> cells) {
        if (cells.size() != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, the table " + headers.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public String render() {
        int[] widths = new int[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers, widths);
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            out.append(c == 0 ? cell + pad : pad + cell);
            out.append(c == cells.size() - 1 ? "\n" : "  ");
        }
    }
}
