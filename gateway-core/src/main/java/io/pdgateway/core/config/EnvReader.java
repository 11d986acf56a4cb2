package io.pdgateway.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads typed settings from an environment map. A value that does not parse keeps the default and records a
 * warning the caller logs, so a typo never stops routing; settings that must stop start-up are checked by the caller.
 */
public final class EnvReader {
    private final Map<String, String> env;
    private final List<String> warnings = new ArrayList<>();

    public EnvReader(Map<String, String> env) {
        this.env = env;
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** Records a warning found by a caller's own validation. */
    public void warn(String warning) {
        warnings.add(warning);
    }

    /** A number within [min, max]; anything else keeps the default. */
    public double inRange(String name, double fallback, double min, double max) {
        String value = string(name, null);
        if (value == null) {
            return fallback;
        }
        try {
            double parsed = Double.parseDouble(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the warning
        }
        warnings.add(name + "=" + value + " must be within " + min + ".." + max + "; using " + fallback);
        return fallback;
    }

    /** An integer; anything else keeps the default. */
    public long integer(String name, long fallback) {
        String value = string(name, null);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            warnings.add(name + "=" + value + " is not an integer; using " + fallback);
            return fallback;
        }
    }

    public String string(String name, String fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    public boolean bool(String name, boolean fallback) {
        String value = string(name, null);
        if (value == null) {
            return fallback;
        }
        if (value.equalsIgnoreCase("true") || value.equals("1")) {
            return true;
        }
        if (value.equalsIgnoreCase("false") || value.equals("0")) {
            return false;
        }
        warnings.add(name + "=" + value + " is not a boolean; using " + fallback);
        return fallback;
    }

    /** A positive number; anything else keeps the default (upstream's env loader does the same). */
    public double positive(String name, double fallback) {
        return number(name, fallback, false, "must be a positive number");
    }

    /** A number >= 0 where 0 means "disabled" (the watchdog timeouts); anything else keeps the default. */
    public double nonNegative(String name, double fallback) {
        return number(name, fallback, true, "must be a number >= 0");
    }

    private double number(String name, double fallback, boolean zeroAllowed, String requirement) {
        String value = string(name, null);
        if (value == null) {
            return fallback;
        }
        try {
            double parsed = Double.parseDouble(value);
            if (Double.isFinite(parsed) && (parsed > 0 || zeroAllowed && parsed == 0)) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the warning
        }
        warnings.add(name + "=" + value + " " + requirement + "; using " + fallback);
        return fallback;
    }
}
