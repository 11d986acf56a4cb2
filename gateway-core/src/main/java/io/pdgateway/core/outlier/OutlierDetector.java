package io.pdgateway.core.outlier;

import io.pdgateway.core.model.Pod;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Outlier detection as Envoy does it, for pods that refuse connections or fail their scrapes: {@code consecutive}
 * failures in a row eject a pod for the base ejection time, doubled for each further ejection in a row up to the
 * maximum. A success (a scrape or a request the pod answered) ends the streak and brings an ejected pod back at
 * once; otherwise it returns when its ejection time is over, and its next failure ejects it again for twice as long.
 * The routing cascade reads {@link #ejected} ({@code EjectedPodsFilter}); the edges report what they see. Pure and
 * thread-safe; time is passed in.
 *
 * <p>Keyed by pod id and address: a pod re-created at another address starts with a clean record.
 */
public final class OutlierDetector {
    /** What a report changed, for the edge's log line and counters. */
    public enum Transition { NONE, EJECTED, RETURNED }

    /**
     * @param consecutive failures in a row that eject a pod
     * @param baseEjectionNanos the first ejection
     * @param maxEjectionNanos the longest ejection
     */
    public record Settings(int consecutive, long baseEjectionNanos, long maxEjectionNanos) {
        public Settings {
            if (consecutive < 1 || baseEjectionNanos <= 0 || maxEjectionNanos < baseEjectionNanos) {
                throw new IllegalArgumentException("bad outlier settings: " + consecutive + ", " + baseEjectionNanos
                        + ", " + maxEjectionNanos);
            }
        }
    }

    private static final class Record {
        // Written under the map's per-key lock, read by routing threads without it.
        volatile int failuresInARow;
        volatile int ejectionsInARow;
        volatile long ejectedUntilNanos;
        volatile boolean everEjected;
    }

    private final Settings settings;
    private final Map<String, Record> pods = new ConcurrentHashMap<>();
    /**
     * When the latest ejection so far ends, once there was one: after it no pod is ejected, so routing asks nothing per
     * pod (a key string and a map lookup per pod per decision at thousands of pods) until the next ejection.
     */
    private volatile long lastEjectionEnds;
    /** Written after {@link #lastEjectionEnds}, so a reader that sees it true sees an end. */
    private volatile boolean everEjectedAny;

    public OutlierDetector(Settings settings) {
        this.settings = settings;
    }

    private static String key(Pod pod) {
        return pod.id() + '@' + pod.address();
    }

    /** The pod refused a connection, or a scrape of it failed. */
    public Transition failure(Pod pod, long nowNanos) {
        Transition[] result = {Transition.NONE};
        pods.compute(key(pod), (k, r) -> {
            Record record = r == null ? new Record() : r;
            record.failuresInARow++;
            boolean ejectedNow = record.everEjected && nowNanos - record.ejectedUntilNanos < 0;
            if (record.failuresInARow >= settings.consecutive() && !ejectedNow) {
                double doubled = settings.baseEjectionNanos() * Math.pow(2, record.ejectionsInARow);
                long time = doubled >= settings.maxEjectionNanos() ? settings.maxEjectionNanos() : (long) doubled;
                record.ejectionsInARow++;
                record.ejectedUntilNanos = nowNanos + time;
                record.everEjected = true;
                ejectionEnds(nowNanos + time);
                result[0] = record.ejectionsInARow == 1 ? Transition.EJECTED : Transition.NONE;
            }
            return record;
        });
        return result[0];
    }

    /** The pod answered (a scrape, or a request): its streak ends and, if ejected, it returns now. */
    public Transition success(Pod pod, long nowNanos) {
        Record known = pods.get(key(pod));
        if (known == null) {
            return Transition.NONE; // the common case: a healthy pod, nothing to record
        }
        Transition[] result = {Transition.NONE};
        pods.computeIfPresent(key(pod), (k, record) -> {
            if (record.ejectionsInARow > 0) {
                result[0] = Transition.RETURNED;
            }
            return null; // a clean record is no record
        });
        return result[0];
    }

    /** True while the pod is ejected: routing leaves it out (unless nothing else is left). */
    public boolean ejected(Pod pod, long nowNanos) {
        if (!anyEjected(nowNanos)) {
            return false;
        }
        Record record = pods.get(key(pod));
        return record != null && record.everEjected && nowNanos - record.ejectedUntilNanos < 0;
    }

    /**
     * False when no pod can be ejected now (every ejection so far has ended); true means only that one may be. Cheap:
     * a decision asks it once before asking per pod.
     */
    public boolean anyEjected(long nowNanos) {
        return everEjectedAny && nowNanos - lastEjectionEnds < 0;
    }

    /** Ejections are rare (a failure streak): one lock keeps the latest end without a lost update. */
    private synchronized void ejectionEnds(long ends) {
        if (!everEjectedAny || ends - lastEjectionEnds > 0) {
            lastEjectionEnds = ends;
        }
        everEjectedAny = true;
    }

    /** Pods ejected now, for the gauge. */
    public int ejectedCount(long nowNanos) {
        int n = 0;
        for (Record record : pods.values()) {
            if (record.everEjected && nowNanos - record.ejectedUntilNanos < 0) {
                n++;
            }
        }
        return n;
    }

    /** Forgets pods no longer in discovery ({@code present}: their ids). */
    public void retainOnly(Set<String> presentIds) {
        pods.keySet().removeIf(k -> !presentIds.contains(k.substring(0, k.lastIndexOf('@'))));
    }
}
