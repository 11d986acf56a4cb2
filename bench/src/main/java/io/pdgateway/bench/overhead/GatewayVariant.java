package io.pdgateway.bench.overhead;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A second pd-gateway process with JVM options of its own, measured as one more target of {@code bench overhead}: the
 * rounds alternate it with the gateway as deployed, so a JVM setting (a heap size, a collector, a system property) is
 * judged against the same minutes of this shared host instead of against another run's. Two runs of the same build a
 * quarter of an hour apart read 915 and 1,073 µs a 200 KB request (2026-12-06), more than most such settings change.
 *
 * @param name         the target is "pd-gateway:" + name
 * @param jvmOptions   given to the variant's JVM after the ones every gateway child gets
 */
public record GatewayVariant(String name, List<String> jvmOptions) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,15}");
    private static final String TARGET_PREFIX = OverheadBenchmark.GATEWAY + ":";

    public GatewayVariant {
        jvmOptions = List.copyOf(jvmOptions);
        if (!NAME.matcher(name).matches() || jvmOptions.isEmpty()) {
            throw new IllegalArgumentException("a gateway variant is NAME=JVM_OPTIONS: a name of up to 16 lower-case "
                    + "letters, digits and dashes, and at least one option; got name '" + name + "'");
        }
    }

    /** {@code NAME=OPTION [OPTION...]}, the options separated by white space. */
    public static GatewayVariant parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("a gateway variant is NAME=JVM_OPTIONS, got '" + spec + "'");
        }
        String options = spec.substring(eq + 1).strip();
        return new GatewayVariant(spec.substring(0, eq).strip(), options.isEmpty() ? List.of()
                : List.of(options.split("\\s+")));
    }

    /** The target's name in the report. */
    public String target() {
        return TARGET_PREFIX + name;
    }

    /** Whether a report's target is a variant's. */
    static boolean isVariant(String target) {
        return target.startsWith(TARGET_PREFIX);
    }
}
