package io.pdgateway.bench.overhead;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A second pd-gateway process with JVM options or gateway settings of its own, measured as one more target of
 * {@code bench overhead}: the rounds alternate it with the gateway as deployed, so a JVM setting (a heap size, a
 * collector, a system property) or one of the gateway's (its event loops) is judged against the same minutes of this
 * shared host instead of against another run's. Two runs of the same build a quarter of an hour apart read 915 and
 * 1,073 µs a 200 KB request (2026-12-06), more than most such settings change.
 *
 * @param name         the target is "pd-gateway:" + name
 * @param jvmOptions   given to the variant's JVM after the ones every gateway child gets
 * @param settings     environment variables of the variant's gateway (its settings, as the README names them)
 */
public record GatewayVariant(String name, List<String> jvmOptions, Map<String, String> settings) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,15}");
    /** A gateway setting among the variant's words: an upper-case environment variable name, '=', its value. */
    private static final Pattern SETTING = Pattern.compile("([A-Z][A-Z0-9_]*)=(.*)");
    private static final String TARGET_PREFIX = OverheadBenchmark.GATEWAY + ":";

    public GatewayVariant {
        jvmOptions = List.copyOf(jvmOptions);
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings)); // in the order given, for the report
        if (!NAME.matcher(name).matches() || jvmOptions.isEmpty() && settings.isEmpty()) {
            throw new IllegalArgumentException("a gateway variant is NAME=OPTIONS: a name of up to 16 lower-case "
                    + "letters, digits and dashes, and at least one JVM option or gateway setting (NAME=value); got "
                    + "name '" + name + "'");
        }
    }

    /**
     * {@code NAME=WORD [WORD...]}, the words separated by white space: JVM options, and gateway settings written as
     * {@code PD_GATEWAY_EVENT_LOOPS=1}.
     */
    public static GatewayVariant parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("a gateway variant is NAME=OPTIONS, got '" + spec + "'");
        }
        String words = spec.substring(eq + 1).strip();
        List<String> jvmOptions = new ArrayList<>();
        Map<String, String> settings = new LinkedHashMap<>();
        for (String word : words.isEmpty() ? new String[0] : words.split("\\s+")) {
            Matcher setting = SETTING.matcher(word);
            if (setting.matches()) {
                settings.put(setting.group(1), setting.group(2));
            } else {
                jvmOptions.add(word);
            }
        }
        return new GatewayVariant(spec.substring(0, eq).strip(), jvmOptions, settings);
    }

    /** What the variant changes, for the report: its JVM options, then its settings. */
    public String describe() {
        List<String> words = new ArrayList<>(jvmOptions);
        settings.forEach((setting, value) -> words.add(setting + "=" + value));
        return String.join(" ", words);
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
