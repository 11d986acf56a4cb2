package io.pdgateway.routingsim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.PodCacheEvents;
import io.pdgateway.routingsim.event.EventQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An engine's prefix cache reports what it stores and evicts; the feed delivers one step's changes to every gateway
 * replica after the delay, in the order they happened, and nothing before.
 */
class KvEventFeedTest {
    private final EventQueue queue = new EventQueue();
    private final List<String> seen = new ArrayList<>();
    private final List<String> seenByOther = new ArrayList<>();

    private PodCacheEvents recorder(List<String> into) {
        return new PodCacheEvents() {
            @Override
            public void stored(String podId, long[] blockHashes) {
                into.add(queue.now() + " " + podId + " stored " + Arrays.toString(blockHashes));
            }

            @Override
            public void removed(String podId, long[] blockHashes) {
                into.add(queue.now() + " " + podId + " removed " + Arrays.toString(blockHashes));
            }

            @Override
            public void cleared(String podId) {
                into.add(queue.now() + " " + podId + " cleared");
            }

            @Override
            public void live(String podId, boolean live) {}
        };
    }

    @Test
    void aFullCache_reportsEvictionsBeforeTheStoresTheyMadeRoomFor_afterTheDelay() {
        KvEventFeed feed = new KvEventFeed("ns/p", queue, 30, List.of(recorder(seen), recorder(seenByOther)));
        PrefixBlockCache cache = new PrefixBlockCache(3);
        cache.publishTo(feed);

        cache.insert(new long[] {1, 2, 3});
        feed.publish();
        cache.insert(new long[] {1, 2, 3}); // all cached already: nothing to report
        feed.publish();
        cache.insert(new long[] {7, 8});
        feed.publish();
        assertThat(seen).as("nothing arrives before the delay").isEmpty();
        queue.run();

        // This engine model refreshes blocks in prompt order, so the least recent are the prompt's first blocks.
        assertThat(seen).containsExactly("30 ns/p stored [1, 2, 3]", "30 ns/p removed [1]", "30 ns/p stored [7]",
                "30 ns/p removed [2]", "30 ns/p stored [8]");
        assertThat(seenByOther).isEqualTo(seen);
    }
}
