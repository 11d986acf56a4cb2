package io.pdgateway.core.cache;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prompt its pod refused before computing it (an error answer, or no answer at all) leaves the pod's cache view:
 * what the pod held when the request was routed stays, and so does whatever another request uses now or has used since
 * (it is that request's prefix too). A refusal after the release, or twice, is the same.
 */
class CacheRefusalTest {
    private final CacheModel model = new CacheModel();
    private final Pod p1 = pod("p1").build();
    private final long[] first = CachedPrefixes.prompt(10, 1);
    private final long[] second = CachedPrefixes.prompt(10, 2);

    private int matched(long[] prompt) {
        return model.match(prompt, List.of(p1), 16).blocks(p1);
    }

    /** The first {@code shared} blocks of {@code base}, then {@code more} of its own. */
    private static long[] extending(long[] base, int shared, int more, int seed) {
        long[] own = CachedPrefixes.prompt(shared + more, seed);
        System.arraycopy(base, 0, own, 0, shared);
        return own; // chained from the shared prefix on: block hashes only need to differ past it
    }

    @Test
    void aRefusedPromptLeavesOnlyWhatThePodHeldBefore() {
        long[] system = CachedPrefixes.prompt(10, 7);
        model.release(model.hold(p1, system, 100));
        long[] tooLong = extending(system, 10, 40, 9);
        CacheHold hold = model.hold(p1, tooLong, 100);
        assertThat(matched(tooLong)).as("held while the pod works on it").isEqualTo(50);

        model.refused(hold, 10);

        assertThat(matched(tooLong)).as("the pod never stored past the system prompt").isEqualTo(10);
        assertThat(matched(system)).isEqualTo(10);
        assertThat(model.blocks(p1.id())).isEqualTo(10);
        model.refused(hold, 10);
        model.release(hold);
        assertThat(model.blocks(p1.id())).as("again, or released after: nothing more").isEqualTo(10);
    }

    @Test
    void whatAnotherRequestUsesNowStays() {
        long[] prompt = CachedPrefixes.prompt(8, 1);
        CacheHold refused = model.hold(p1, prompt, 100);
        CacheHold running = model.hold(p1, prompt, 100); // routed to the same pod before the refusal came back

        model.refused(refused, 0);

        assertThat(matched(prompt)).isEqualTo(8);
        model.release(running);
        assertThat(matched(prompt)).isEqualTo(8);
    }

    @Test
    void whatALaterRequestReferencedStaysWithItsPrefix() {
        long[] prompt = CachedPrefixes.prompt(8, 1);
        CacheHold refused = model.hold(p1, prompt, 100);
        long[] longer = extending(prompt, 8, 4, 2);
        model.release(model.hold(p1, longer, 100)); // a follow-up went on past it on the same pod, and ended

        model.refused(refused, 0);

        assertThat(matched(longer)).as("the follow-up's blocks, the refused prompt's among them").isEqualTo(12);
    }

    /**
     * An engine refuses a prompt before it allocates anything, so a refused prompt evicts nothing: a client repeating
     * one over the context length must not empty the pod's view of what it does hold.
     */
    @Test
    void aRefusedPromptEvictsNothing_howeverOftenItComes() {
        fillWithFirstThenSecond();

        for (int i = 0; i < 5; i++) {
            CacheHold tooLong = model.hold(p1, CachedPrefixes.prompt(30, 100 + i), 20);
            takenAndEnded(second, 20); // a request the pod had already taken ends meanwhile
            assertThat(matched(first)).as("held but not taken: it pushes nothing out").isEqualTo(10);
            model.refused(tooLong, 0);
        }

        assertThat(matched(first)).isEqualTo(10);
        assertThat(matched(second)).isEqualTo(10);
        assertThat(model.blocks(p1.id())).isEqualTo(20);
    }

    @Test
    void aTakenPromptEvictsTheLeastRecent_onceThePodTakesIt() {
        fillWithFirstThenSecond();
        CacheHold next = model.hold(p1, CachedPrefixes.prompt(10, 3), 20);
        assertThat(matched(first)).isEqualTo(10);

        model.accepted(next);

        assertThat(matched(first)).as("the least recent, evicted as the engine scheduled the prompt").isZero();
        assertThat(matched(second)).isEqualTo(10);
        assertThat(model.blocks(p1.id())).isEqualTo(20);
    }

    /** A request that ends without a word from its pod (a timeout, a client gone) may have been computed. */
    @Test
    void aReleaseBeforeThePodTookThePromptEvictsAsATakenOne() {
        takenAndEnded(first, 10);
        CacheHold next = model.hold(p1, CachedPrefixes.prompt(10, 3), 10);

        model.release(next);

        assertThat(matched(first)).isZero();
        assertThat(model.blocks(p1.id())).isEqualTo(10);
    }

    /** The pod's 20 blocks: {@link #first}'s ten, the least recent, then {@link #second}'s. */
    private void fillWithFirstThenSecond() {
        takenAndEnded(first, 20);
        takenAndEnded(second, 20);
    }

    /** A request the pod took and finished: its blocks are the pod's most recent free ones. */
    private void takenAndEnded(long[] prompt, int capacity) {
        CacheHold hold = model.hold(p1, prompt, capacity);
        model.accepted(hold);
        model.release(hold);
    }

    @Test
    void aRefusalAfterTheReleaseStillForgets() {
        long[] prompt = CachedPrefixes.prompt(8, 1);
        CacheHold hold = model.hold(p1, prompt, 100);
        model.release(hold); // the client went away first

        model.refused(hold, 3);

        assertThat(matched(prompt)).isEqualTo(3);
        assertThat(model.blocks(p1.id())).isEqualTo(3);
    }
}
