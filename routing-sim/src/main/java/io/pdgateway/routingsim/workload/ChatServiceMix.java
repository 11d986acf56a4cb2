package io.pdgateway.routingsim.workload;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The simulator's synthetic workload, shaped like a chat service: multi-turn sessions that share a few system prompts,
 * with a share of long-document prompts, all lengths exponential around the means given. Written
 * {@code synthetic:rate=8,seconds=300,turns=4}; every key is optional. (bench's {@code --synthetic} mix, the workload
 * library's {@code SyntheticWorkload}, is another generator: lengths from distributions the user writes out, one
 * shared prefix, bursts, and prompt text instead of block hashes.)
 *
 * @param rate requests per second, on average (Poisson session arrivals)
 * @param seconds length of the arrival window
 * @param systems distinct system prompts the sessions share (the shared prefixes)
 * @param systemTokens tokens of each system prompt
 * @param userTokens mean tokens a user adds per turn (exponential, at least 16)
 * @param outputTokens mean tokens of an answer (exponential, 1..4096)
 * @param turns turns per session; turn k's prompt holds the whole conversation so far
 * @param thinkSeconds mean pause between two turns of a session (exponential), open loop
 * @param longShare share of sessions that open with a long document instead of a short message
 * @param longTokens tokens of such a document
 */
public record ChatServiceMix(double rate, double seconds, int systems, int systemTokens, int userTokens, int outputTokens,
        int turns, double thinkSeconds, double longShare, int longTokens) {

    /** A mid-sized chat service: 8 req/s for five minutes, 4 system prompts of 1,024 tokens, 4 turns a session. */
    public static final ChatServiceMix DEFAULT = new ChatServiceMix(8, 300, 4, 1024, 256, 256, 4, 20, 0.1, 16_384);

    public ChatServiceMix {
        if (!(rate > 0) || !(seconds > 0) || systems < 1 || systemTokens < 0 || userTokens < 1 || outputTokens < 1
                || turns < 1 || thinkSeconds < 0 || longShare < 0 || longShare > 1 || longTokens < 1) {
            throw new IllegalArgumentException("synthetic mix out of range: " + this);
        }
    }

    /** Parses {@code synthetic[:key=value,...]} over {@link #DEFAULT}; unknown keys are an error naming them. */
    public static ChatServiceMix parse(String spec) {
        Map<String, String> values = new LinkedHashMap<>();
        int colon = spec.indexOf(':');
        if (colon >= 0 && colon < spec.length() - 1) {
            for (String pair : spec.substring(colon + 1).split(",")) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("synthetic option '" + pair + "' is not key=value");
                }
                values.put(kv[0].trim().toLowerCase(Locale.ROOT), kv[1].trim());
            }
        }
        ChatServiceMix d = DEFAULT;
        ChatServiceMix mix = new ChatServiceMix(
                number(values, "rate", d.rate), number(values, "seconds", d.seconds),
                (int) number(values, "systems", d.systems), (int) number(values, "system", d.systemTokens),
                (int) number(values, "user", d.userTokens), (int) number(values, "output", d.outputTokens),
                (int) number(values, "turns", d.turns), number(values, "think", d.thinkSeconds),
                number(values, "long", d.longShare), (int) number(values, "longtokens", d.longTokens));
        if (!values.isEmpty()) {
            throw new IllegalArgumentException("unknown synthetic option(s) " + values.keySet() + "; known: rate, seconds, "
                    + "systems, system, user, output, turns, think, long, longtokens");
        }
        return mix;
    }

    private static double number(Map<String, String> values, String key, double fallback) {
        String value = values.remove(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("synthetic option " + key + "=" + value + " is not a number");
        }
    }

    /** The spec that reproduces this mix. */
    public String spec() {
        return String.format(Locale.ROOT, "synthetic:rate=%s,seconds=%s,systems=%d,system=%d,user=%d,output=%d,turns=%d,"
                + "think=%s,long=%s,longtokens=%d", rate, seconds, systems, systemTokens, userTokens, outputTokens, turns,
                thinkSeconds, longShare, longTokens);
    }
}
