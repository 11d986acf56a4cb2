package io.pdgateway.core.cache;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pod's cache view while its engine's KV events are live (event-fed) and after they stop (the gateway's model again):
 * reported blocks are the truth, removals and clears apply even to blocks in use, routed-but-unreported blocks count
 * only while their request runs, nothing is evicted by capacity, and a stream that stops leaves the gateway's model to
 * go on from what the engine last reported.
 */
class EventFedCacheViewTest {
    private static final int CAPACITY = 8;
    private final Pod p1 = pod("p1").build();
    private final Pod p2 = pod("p2").build();
    private final CacheViews views = new CacheViews(pod -> CAPACITY);
    private CacheModel model;

    @BeforeEach
    void discover() {
        views.retainOnly(ClusterSnapshot.of(List.of(p1, p2)));
        model = views.model(p1.model());
    }

    private int matched(long[] prompt, Pod pod) {
        return model.match(prompt, List.of(p1, p2), BlockHasher.DEFAULT_BLOCK_TOKENS).blocks(pod);
    }

    private static long[] prompt(int blocks, int seed) {
        return CachedPrefixes.prompt(blocks, seed);
    }

    @Test
    void live_dropsTheGatewaysGuesses_keepsWhatTheEngineReported() {
        long[] guessed = prompt(4, 1);
        long[] reported = prompt(3, 2);
        model.release(model.hold(p1, guessed, CAPACITY));
        views.stored(p1.id(), reported);
        assertThat(matched(guessed, p1)).as("modelled: the gateway's guess counts").isEqualTo(4);

        views.live(p1.id(), true);

        assertThat(views.eventsLive(p1.id())).isTrue();
        assertThat(model.eventFed(p1.id())).isTrue();
        assertThat(matched(guessed, p1)).as("event-fed: the engine never reported it").isZero();
        assertThat(matched(reported, p1)).isEqualTo(3);
    }

    @Test
    void live_removedAndCleared_applyEvenToBlocksInUse() {
        views.live(p1.id(), true);
        long[] a = prompt(4, 1);
        views.stored(p1.id(), a);
        CacheHold inUse = model.hold(p1, a, CAPACITY);

        views.removed(p1.id(), new long[] {a[2], a[3]});
        assertThat(matched(a, p1)).as("the engine evicted the tail").isEqualTo(2);

        views.cleared(p1.id());
        assertThat(matched(a, p1)).as("AllBlocksCleared empties the view").isZero();
        model.release(inUse); // the request's end touches nothing that is gone
        assertThat(model.blocks(p1.id())).isZero();
    }

    @Test
    void live_routedBlocksArePendingUntilTheEngineConfirmsThem() {
        views.live(p1.id(), true);
        long[] a = prompt(4, 1);
        CacheHold computing = model.hold(p1, a, CAPACITY);
        assertThat(matched(a, p1)).as("in flight: the next request sharing the prefix sees it").isEqualTo(4);

        model.release(computing);
        assertThat(matched(a, p1)).as("ended without the engine reporting it: gone").isZero();

        CacheHold again = model.hold(p1, a, CAPACITY);
        views.stored(p1.id(), Arrays.copyOf(a, 3));
        model.release(again);
        assertThat(matched(a, p1)).as("kept exactly what the engine confirmed").isEqualTo(3);
    }

    @Test
    void live_noCapacityEviction_theEngineSaysWhatGoes() {
        views.live(p1.id(), true);
        long[] big = prompt(2 * CAPACITY, 1);
        views.stored(p1.id(), big);
        model.release(model.hold(p1, big, CAPACITY));
        assertThat(matched(big, p1)).as("beyond the configured capacity, all reported").isEqualTo(2 * CAPACITY);
    }

    @Test
    void stale_fallsBackToTheModel_fromTheLastReportedState() {
        views.live(p1.id(), true);
        long[] big = prompt(2 * CAPACITY, 1);
        views.stored(p1.id(), big);

        views.live(p1.id(), false);

        assertThat(views.eventsLive(p1.id())).isFalse();
        assertThat(model.eventFed(p1.id())).isFalse();
        assertThat(matched(big, p1)).as("the model keeps what it can hold, the prefix longest").isEqualTo(CAPACITY);
        long[] routed = prompt(3, 2);
        model.release(model.hold(p1, routed, CAPACITY));
        assertThat(matched(routed, p1)).as("the model's guesses count again").isEqualTo(3);
        assertThat(matched(big, p1)).as("and evict by capacity").isEqualTo(CAPACITY - 3);
    }

    @Test
    void eventsFor_podsDiscoveryDoesNotKnow_areIgnored() {
        views.live("ns/unknown", true);
        views.stored("ns/unknown", prompt(2, 1));
        assertThat(views.eventsLive("ns/unknown")).isFalse();
        assertThat(views.totalBlocks()).isZero();
    }

    @Test
    void predictedHits_arePerRoutedPod_andLeaveWithIt() {
        List<String> firsts = new java.util.ArrayList<>();
        views.onFirstRouted(firsts::add);
        views.routed(p1, 1_000, 640);
        views.routed(p1, 500, 0);
        assertThat(views.routedPromptTokens(p1.id())).isEqualTo(1_500);
        assertThat(views.predictedCachedTokens(p1.id())).isEqualTo(640);
        assertThat(views.routedPods()).containsExactly(p1.id());
        assertThat(firsts).as("told once, at the pod's first request").containsExactly(p1.id());

        views.retainOnly(ClusterSnapshot.of(List.of(p2)));
        assertThat(views.routedPods()).isEmpty();
    }

    @Test
    void otherPods_stayModelled() {
        views.live(p1.id(), true);
        long[] a = prompt(4, 1);
        model.release(model.hold(p2, a, CAPACITY));
        assertThat(matched(a, p2)).isEqualTo(4);
        assertThat(model.eventFed(p2.id())).isFalse();
    }
}
