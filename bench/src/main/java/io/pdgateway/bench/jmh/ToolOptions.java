package io.pdgateway.bench.jmh;

import java.util.HashMap;
import java.util.Map;

/** The {@code key=value} arguments of this package's command-line tools, over each tool's defaults. */
final class ToolOptions {
    private ToolOptions() {}

    /** The defaults with the arguments' values; a key the tool does not know, or a word without a value, is refused. */
    static Map<String, String> parse(Map<String, String> defaults, String[] args) {
        Map<String, String> options = new HashMap<>(defaults);
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            if (!options.containsKey(kv[0]) || kv.length < 2) {
                throw new IllegalArgumentException("unknown option " + arg);
            }
            options.put(kv[0], kv[1]);
        }
        return options;
    }
}
