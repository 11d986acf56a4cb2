package io.pdgateway.routingsim.event;

/** Something that happens at one instant of virtual time. */
@FunctionalInterface
public interface Event {
    /** Runs the event; {@code now} is the virtual time it was scheduled for, in nanoseconds. */
    void fire(long now);
}
