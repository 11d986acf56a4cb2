package io.pdgateway.core.ledger;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last prompt size of each x-aibrix-session-key (per model), for token_load's session-delta charge. Bounded
 * (spec): keys over 256 bytes are ignored, at most AIBRIX_TOKEN_LOAD_MAX_SESSIONS are remembered (new ones beyond
 * that get no delta until the janitor forgets idle ones), and entries expire after
 * AIBRIX_TOKEN_LOAD_SESSION_TTL_SECONDS.
 */
public final class SessionTable {
    /** Spec: keys longer than 256 bytes are ignored. */
    public static final int MAX_KEY_BYTES = 256;

    /** @param ttlNanos the TTL of the profile that last wrote it: the janitor keeps the entry that long */
    private record Entry(long promptTokens, long seenAtNanos, long ttlNanos) {}

    private final Map<String, Entry> sessions = new ConcurrentHashMap<>();
    private final int maxSessions;

    public SessionTable(int maxSessions) {
        this.maxSessions = maxSessions;
    }

    /**
     * The growth since the session's last, shorter prompt, or -1 when the rule does not apply (no key, key too long,
     * rule off, unknown or expired session, or a prompt not longer than the last). Records the prompt either way.
     */
    public long delta(String model, String key, long promptTokens, long ttlNanos, long nowNanos) {
        if (key == null || key.isEmpty() || ttlNanos <= 0 || key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            return -1;
        }
        String id = model + '\u0000' + key;
        Entry previous = sessions.get(id);
        if (previous != null || sessions.size() < maxSessions) {
            sessions.put(id, new Entry(promptTokens, nowNanos, ttlNanos));
        }
        if (previous == null || nowNanos - previous.seenAtNanos() > ttlNanos || previous.promptTokens() >= promptTokens) {
            return -1;
        }
        return promptTokens - previous.promptTokens();
    }

    /** Forgets sessions not seen within their own TTL (a profile's tokenLoadSessionTTLSeconds, or the environment's). */
    public void expire(long nowNanos) {
        for (Iterator<Entry> it = sessions.values().iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (nowNanos - entry.seenAtNanos() > entry.ttlNanos()) {
                it.remove();
            }
        }
    }

    public int size() {
        return sessions.size();
    }
}
