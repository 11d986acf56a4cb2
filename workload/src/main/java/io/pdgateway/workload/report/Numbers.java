package io.pdgateway.workload.report;

import java.util.Locale;

/** How every report spells a number: milliseconds with sensible digits, "-" for what was not measured. */
final class Numbers {
    private Numbers() {}

    static String millis(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        if (value >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (value >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }

    static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    static String rate(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }
}
