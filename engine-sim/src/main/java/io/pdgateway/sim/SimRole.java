package io.pdgateway.sim;

import java.util.Locale;

/** What a simulated pod does with a request: prefill only, decode only, or both (a standard pod). */
public enum SimRole {
    /** Runs the prefill, keeps the KV for a decode pod to fetch, answers one token. */
    PREFILL,
    /** Fetches the KV a prefill pod computed, then generates; without PD fields it runs like COMBINED. */
    DECODE,
    /** An ordinary engine: prefill then decode on the same pod. */
    COMBINED;

    /** Parses the CLI / label spelling ({@code prefill}, {@code decode}, {@code combined}), any case. */
    public static SimRole parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "unknown sim role '" + name + "', supported: prefill, decode, combined", e);
        }
    }

    /** The lower-case spelling used on the command line and in logs. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
