package io.pdgateway.server.kvevents;

import java.util.List;

/**
 * One decoded message payload: the engine's {@code EventBatch}.
 *
 * @param ts the engine's wall-clock time of the batch, in seconds since the epoch
 * @param events the events this gateway understands, in order
 * @param dataParallelRank the publishing data-parallel rank, or -1 when the engine leaves it out
 * @param unknownEvents events with a tag this gateway does not know (skipped; a newer engine's addition)
 * @param malformedEvents events with a known tag whose fields could not be read (skipped)
 */
public record KvEventBatch(double ts, List<KvEvent> events, int dataParallelRank, int unknownEvents,
        int malformedEvents) {

    public KvEventBatch {
        events = List.copyOf(events);
    }
}
