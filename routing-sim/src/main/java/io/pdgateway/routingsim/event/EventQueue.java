package io.pdgateway.routingsim.event;

import java.util.Arrays;

/**
 * The virtual clock and its pending events: a binary min-heap ordered by time, then by scheduling order, so two
 * events at the same instant fire in the order they were scheduled and a run is deterministic. Nothing sleeps:
 * {@link #run()} jumps from one event to the next. Single-threaded by design (one queue per simulated cluster).
 */
public final class EventQueue {
    /** Heap arrays start small and double; a cluster keeps about one pending event per busy pod. */
    private static final int INITIAL_CAPACITY = 256;

    private long[] times = new long[INITIAL_CAPACITY];
    private long[] order = new long[INITIAL_CAPACITY];
    private Event[] events = new Event[INITIAL_CAPACITY];
    private int size;
    private long scheduled;
    private long fired;
    private long now;

    /** The current virtual time in nanoseconds: the time of the event being fired, or of the last one. */
    public long now() {
        return now;
    }

    /** Events fired so far, for the run's statistics. */
    public long fired() {
        return fired;
    }

    public int pending() {
        return size;
    }

    /** Schedules {@code event} at {@code atNanos}, which must not be in the past. */
    public void schedule(long atNanos, Event event) {
        if (atNanos < now) {
            throw new IllegalArgumentException("event scheduled at " + atNanos + " ns, before now (" + now + " ns)");
        }
        if (size == times.length) {
            int capacity = size * 2;
            times = Arrays.copyOf(times, capacity);
            order = Arrays.copyOf(order, capacity);
            events = Arrays.copyOf(events, capacity);
        }
        int i = size++;
        long seq = scheduled++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(atNanos, seq, times[parent], order[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        times[i] = atNanos;
        order[i] = seq;
        events[i] = event;
    }

    /** Schedules {@code event} {@code delayNanos} from now. */
    public void after(long delayNanos, Event event) {
        schedule(now + delayNanos, event);
    }

    /** Fires the earliest event; false when none is left. */
    public boolean step() {
        if (size == 0) {
            return false;
        }
        long at = times[0];
        Event event = events[0];
        removeRoot();
        now = at;
        fired++;
        event.fire(at);
        return true;
    }

    /** Fires events until none is left. */
    public void run() {
        while (step()) {
            // each step advances the clock to the next event
        }
    }

    private void removeRoot() {
        int last = --size;
        long t = times[last];
        long o = order[last];
        Event e = events[last];
        events[last] = null;
        if (last == 0) {
            return;
        }
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && before(times[child + 1], order[child + 1], times[child], order[child])) {
                child++;
            }
            if (!before(times[child], order[child], t, o)) {
                break;
            }
            move(child, i);
            i = child;
        }
        times[i] = t;
        order[i] = o;
        events[i] = e;
    }

    private void move(int from, int to) {
        times[to] = times[from];
        order[to] = order[from];
        events[to] = events[from];
    }

    private static boolean before(long t1, long o1, long t2, long o2) {
        return t1 < t2 || t1 == t2 && o1 < o2;
    }
}
