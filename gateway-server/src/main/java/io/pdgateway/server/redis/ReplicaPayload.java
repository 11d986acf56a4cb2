package io.pdgateway.server.redis;

import io.pdgateway.core.ledger.RemoteLoad;
import java.util.HashMap;
import java.util.Map;

/**
 * One replica's published charges as a compact text value: a version line, the publish time in epoch ms, then one
 * line per pod "namespace/name TAB running TAB decode_tokens TAB decode_requests TAB age_sum_seconds". Kubernetes
 * names hold neither tabs nor newlines, so no escaping is needed; an unreadable value is ignored, never fatal.
 */
final class ReplicaPayload {
    static final String VERSION = "pdgw1";

    private ReplicaPayload() {}

    static String encode(long epochMillis, Map<String, RemoteLoad.PodLoad> pods) {
        StringBuilder out = new StringBuilder(64 + pods.size() * 48).append(VERSION).append('\n').append(epochMillis);
        pods.forEach((id, load) -> out.append('\n').append(id).append('\t').append(load.running()).append('\t')
                .append(load.decodeTokens()).append('\t').append(load.decodeRequests()).append('\t')
                .append(load.ageSumSeconds()));
        return out.toString();
    }

    /** The pods of one payload, or an empty map when it is not one this version understands. */
    static Map<String, RemoteLoad.PodLoad> decode(String value) {
        return decode(value, Long.MIN_VALUE);
    }

    /**
     * As {@link #decode(String)}, stamped {@code atEpochMillis} (the reader's clock) instead of the writer's own
     * stamp; {@code Long.MIN_VALUE} keeps the writer's.
     */
    static Map<String, RemoteLoad.PodLoad> decode(String value, long atEpochMillis) {
        Map<String, RemoteLoad.PodLoad> pods = new HashMap<>();
        String[] lines = value.split("\n");
        if (lines.length < 2 || !VERSION.equals(lines[0])) {
            return pods;
        }
        try {
            long at = atEpochMillis == Long.MIN_VALUE ? Long.parseLong(lines[1]) : atEpochMillis;
            for (int i = 2; i < lines.length; i++) {
                String[] f = lines[i].split("\t");
                if (f.length == 5) {
                    pods.put(f[0], new RemoteLoad.PodLoad(Long.parseLong(f[1]), Long.parseLong(f[2]),
                            Long.parseLong(f[3]), Double.parseDouble(f[4]), at));
                }
            }
        } catch (NumberFormatException e) {
            pods.clear();
        }
        return pods;
    }
}
