package io.pdgateway.core.cache;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The per-pod prefix-cache model against a scripted engine: a prompt's blocks are cached where it was computed and hit
 * by prompts sharing its prefix; free blocks are evicted least recent first with the prefix kept longest; referenced
 * blocks are never evicted; engine events add and remove blocks; a pod that leaves takes its blocks along; and over a
 * long random script the model's matches equal those of a plain reference engine.
 */
class CacheModelTest {
    private final CacheModel model = new CacheModel();
    private final Pod p1 = pod("p1").build();
    private final Pod p2 = pod("p2").build();

    private static long[] prompt(int blocks, int seed) {
        return CachedPrefixes.prompt(blocks, seed);
    }

    /** The first {@code shared} blocks of {@code base}, then blocks of its own. */
    private static long[] sharing(long[] base, int shared, int total, int seed) {
        int[] tokens = new int[total * BlockHasher.DEFAULT_BLOCK_TOKENS];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = i < shared * BlockHasher.DEFAULT_BLOCK_TOKENS ? 100_000 * 7 + i : seed * 100_000 + i;
        }
        long[] own = BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length, BlockHasher.DEFAULT_BLOCK_TOKENS);
        long[] base7 = Arrays.copyOf(own, shared);
        assertThat(base7).isEqualTo(Arrays.copyOf(base, shared));
        return own;
    }

    private int matched(long[] prompt, Pod pod) {
        return model.match(prompt, List.of(p1, p2), 16).blocks(pod);
    }

    @Test
    void fill_thenHit_byPromptsSharingThePrefix() {
        long[] system = prompt(10, 7);
        model.release(model.hold(p1, system, 100));
        assertThat(matched(system, p1)).isEqualTo(10);
        assertThat(matched(system, p2)).isZero();
        long[] followUp = sharing(system, 6, 12, 9);
        assertThat(matched(followUp, p1)).as("6 of its 12 blocks are p1's").isEqualTo(6);
        assertThat(model.match(followUp, List.of(p1), 16).percent(p1)).isEqualTo(50);
    }

    @Test
    void overCapacity_evictsLeastRecentFreeBlocks_deepestFirst() {
        long[] first = prompt(8, 1);
        long[] second = prompt(8, 2);
        model.release(model.hold(p1, first, 10));
        model.release(model.hold(p1, second, 10));
        // 16 blocks into 10: the 6 least recent go, which are first's deepest (freed deepest first, so its prefix is
        // the more recent part of it): first keeps blocks 0 and 1.
        assertThat(model.blocks(p1.id())).isEqualTo(10);
        assertThat(matched(first, p1)).isEqualTo(2);
        assertThat(matched(second, p1)).isEqualTo(8);
    }

    @Test
    void referencedBlocks_neverEvicted_overflowUntilReleased() {
        long[] running = prompt(8, 1);
        CacheHold hold = model.hold(p1, running, 4);
        assertThat(model.blocks(p1.id())).as("in use: over capacity until released").isEqualTo(8);
        model.release(hold);
        assertThat(model.blocks(p1.id())).isEqualTo(4);
        assertThat(matched(running, p1)).as("the prefix stays").isEqualTo(4);
        model.release(hold);
        assertThat(model.blocks(p1.id())).as("a second release changes nothing").isEqualTo(4);
    }

    @Test
    void engineEvents_storeRemoveClear() {
        model.eventsLive(p2.id(), p2.address(), 100, true); // events count once live (EventFedCacheViewTest)
        long[] blocks = prompt(6, 3);
        model.stored(p2.id(), p2.address(), blocks, 100);
        assertThat(matched(blocks, p2)).isEqualTo(6);
        model.removed(p2.id(), new long[] {blocks[3]});
        assertThat(matched(blocks, p2)).isEqualTo(3);
        model.cleared(p2.id());
        assertThat(matched(blocks, p2)).isZero();
        assertThat(model.distinctBlocks()).isZero();
    }

    @Test
    void podLeaves_itsBlocksGo_holdsReleaseIntoTheVoid() {
        long[] shared = prompt(5, 4);
        CacheHold held = model.hold(p1, shared, 100);
        model.release(model.hold(p2, shared, 100));
        assertThat(model.retainOnly(Map.of(p2.id(), p2.address()))).containsExactly(p1.id());
        assertThat(model.hasPod(p1.id())).isFalse();
        assertThat(matched(shared, p1)).isZero();
        assertThat(matched(shared, p2)).isEqualTo(5);
        model.release(held);
        assertThat(model.totalBlocks()).isEqualTo(5);
        // The same name at another address is another pod: nothing inherited.
        Pod moved = new Pod("default", "p2", "m", "10.9.9.9", 8000, 8000, "vllm", p2.role(), null, null, 8998, null,
                Map.of());
        assertThat(model.match(shared, List.of(moved), 16).blocks(moved)).isZero();
    }

    @Test
    void sharedSystemPrompt_everyPodMatches_thenEachItsOwnTail() {
        long[] system = prompt(4, 7);
        List<Pod> pods = new ArrayList<>();
        Map<Pod, long[]> tails = new HashMap<>();
        for (int i = 0; i < 50; i++) {
            Pod pod = pod("s" + i).build();
            pods.add(pod);
            long[] own = sharing(system, 4, 4 + 1 + i % 3, 1000 + i);
            tails.put(pod, own);
            model.release(model.hold(pod, own, 1000));
        }
        Pod probe = pods.get(17);
        PrefixMatch match = model.match(tails.get(probe), pods, 16);
        for (Pod pod : pods) {
            assertThat(match.blocks(pod)).as(pod.name()).isEqualTo(pod == probe ? tails.get(probe).length : 4);
        }
    }

    /**
     * A hold whose blocks the engine removed meanwhile must leave alone the same blocks held again by a later request:
     * releasing it must not free the later request's blocks for eviction.
     */
    @Test
    void staleHold_releasesNothingOfTheRequestNowOnItsNodes() {
        long[] prompt = prompt(4, 7);
        CacheHold first = model.hold(p1, prompt, 4);
        model.removed(p1.id(), prompt); // the engine evicted them while the first request still ran
        CacheHold second = model.hold(p1, prompt, 4); // the same blocks again, for another request
        model.release(first);
        model.release(model.hold(p1, prompt(4, 8), 4)); // over capacity: only free blocks may be evicted
        assertThat(matched(prompt, p1)).as("the second request's blocks are still referenced").isEqualTo(4);
        model.release(second);
    }

    /** A reused match is refilled whole: what the last lookup found (more pods, another prompt) is gone. */
    @Test
    void reusableMatch_refilled_keepsNothingOfTheLastLookup() {
        long[] system = prompt(4, 7);
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Pod pod = pod("s" + i).build();
            pods.add(pod);
            model.release(model.hold(pod, system, 1000));
        }
        long[] other = prompt(6, 8);
        model.release(model.hold(p1, other, 1000));
        PrefixMatch reuse = PrefixMatch.reusable();
        assertThat(model.match(system, pods, 16, reuse)).isSameAs(reuse);
        assertThat(reuse.blocks(pods.get(3))).isEqualTo(4);
        assertThat(model.match(other, List.of(p1, pods.get(3)), 16, reuse)).isSameAs(reuse);
        assertThat(reuse.blocks(p1)).isEqualTo(6);
        assertThat(reuse.blocks(pods.get(3))).as("held the last prompt, not this one").isZero();
        assertThat(reuse.promptBlocks()).isEqualTo(6);
        assertThat(model.match(prompt(3, 9), pods, 16, reuse)).as("held nowhere").isSameAs(PrefixMatch.NONE);
    }

    /** A plain engine: per pod, free blocks in LRU order and referenced blocks with counts. */
    private static final class ScriptedEngine {
        final Map<String, LinkedHashMap<Long, Boolean>> free = new HashMap<>();
        final Map<String, Map<Long, Integer>> refs = new HashMap<>();
        final int capacity;

        ScriptedEngine(int capacity) {
            this.capacity = capacity;
        }

        void hold(Pod pod, long[] blocks) {
            var f = free.computeIfAbsent(pod.id(), k -> new LinkedHashMap<>());
            var r = refs.computeIfAbsent(pod.id(), k -> new HashMap<>());
            for (long b : blocks) {
                f.remove(b);
                r.merge(b, 1, Integer::sum);
            }
            evict(pod);
        }

        void release(Pod pod, long[] blocks) {
            var f = free.get(pod.id());
            var r = refs.get(pod.id());
            for (int i = blocks.length - 1; i >= 0; i--) {
                long b = blocks[i];
                int left = r.merge(b, -1, Integer::sum);
                if (left == 0) {
                    r.remove(b);
                    f.put(b, Boolean.TRUE);
                }
            }
            evict(pod);
        }

        void evict(Pod pod) {
            var f = free.get(pod.id());
            var r = refs.get(pod.id());
            var it = f.keySet().iterator();
            while (f.size() + r.size() > capacity && it.hasNext()) {
                it.next();
                it.remove();
            }
        }

        int matched(Pod pod, long[] prompt) {
            var f = free.getOrDefault(pod.id(), new LinkedHashMap<>());
            var r = refs.getOrDefault(pod.id(), Map.of());
            int n = 0;
            while (n < prompt.length && (f.containsKey(prompt[n]) || r.containsKey(prompt[n]))) {
                n++;
            }
            return n;
        }
    }

    @Test
    void randomScript_matchesTheScriptedEngine() {
        runScript(List.of(p1, p2, pod("p3").build()), 4000);
    }

    /**
     * Past 64 pods, pods share holder bits: a block's marks name pods that do not hold it, and still the walk must ask
     * exactly the pods that might.
     */
    @Test
    void randomScript_overMorePodsThanHolderBits_matchesTheScriptedEngine() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            pods.add(pod("q" + i).build());
        }
        runScript(pods, 3000);
    }

    /**
     * Prompts that end inside others and depart from them at every depth: the model splits its runs where a prompt
     * ends or departs, and each split must keep every pod's blocks, references and eviction order as they were.
     */
    @Test
    void randomScript_prefixesOfEachOtherAndBranches_matchTheScriptedEngine() {
        SplittableRandom random = new SplittableRandom(5);
        long[] trunk = prompt(24, 7);
        long[][] prompts = new long[16][];
        for (int i = 0; i < prompts.length; i++) {
            int depth = 1 + random.nextInt(trunk.length);
            prompts[i] = i % 2 == 0 ? Arrays.copyOf(trunk, depth)
                    : sharing(trunk, depth - 1, depth + random.nextInt(6), 300 + i);
        }
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pods.add(pod("r" + i).build());
        }
        runScript(pods, 4000, prompts, 30);
    }

    private void runScript(List<Pod> pods, int steps) {
        long[][] prompts = new long[12][];
        for (int i = 0; i < prompts.length; i++) {
            // Families of prompts sharing 0, 3 or 6 blocks of one system prompt.
            prompts[i] = i % 3 == 0 ? prompt(5 + i % 7, 50 + i) : sharing(prompt(12, 7), 3 * (i % 3), 8 + i % 5, 60 + i);
        }
        runScript(pods, steps, prompts, 40);
    }

    private void runScript(List<Pod> pods, int steps, long[][] prompts, int capacity) {
        SplittableRandom random = new SplittableRandom(11);
        ScriptedEngine engine = new ScriptedEngine(capacity);
        record Held(Pod pod, long[] prompt, CacheHold hold) {}
        List<Held> held = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            if (held.isEmpty() || random.nextInt(3) > 0) {
                Pod pod = pods.get(random.nextInt(pods.size()));
                long[] p = prompts[random.nextInt(prompts.length)];
                CacheHold hold = model.hold(pod, p, capacity);
                model.accepted(hold); // the engine takes the prompt at once
                held.add(new Held(pod, p, hold));
                engine.hold(pod, p);
            } else {
                Held h = held.remove(random.nextInt(held.size()));
                model.release(h.hold());
                engine.release(h.pod(), h.prompt());
            }
            long[] probe = prompts[random.nextInt(prompts.length)];
            PrefixMatch match = model.match(probe, pods, 16);
            for (Pod pod : pods) {
                assertThat(match.blocks(pod)).as("step " + step + " " + pod.name()).isEqualTo(engine.matched(pod, probe));
                assertThat(model.blocks(pod.id())).as("step " + step + " size").isEqualTo(
                        engine.free.getOrDefault(pod.id(), new LinkedHashMap<>()).size()
                                + engine.refs.getOrDefault(pod.id(), Map.of()).size());
            }
        }
    }

    @Test
    void matchKeptByPosition_readsAsTheMatchKeptById() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            pods.add(pod("p" + i).prefill("rs" + i).build());
            pods.add(pod("d" + i).decode("rs" + i).build());
        }
        io.pdgateway.core.model.ModelPods snapshot = io.pdgateway.core.model.ModelPods.of("m", pods);
        io.pdgateway.core.model.PodSlots slots = new io.pdgateway.core.model.PodSlots(snapshot);
        List<Pod> computing = snapshot.computingPods();
        long[] system = prompt(12, 7);
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < computing.size(); i++) { // a shared prefix of any depth on most pods, none on some
            int depth = random.nextInt(13);
            if (depth > 0) {
                model.release(model.hold(computing.get(i), Arrays.copyOf(system, depth), 1000));
            }
        }
        PrefixMatch reusable = PrefixMatch.reusable();
        for (int round = 0; round < 2; round++) { // refilled: nothing of the first round may linger
            long[] prompt = round == 0 ? system : sharing(system, 7, 15, 5);
            if (round == 1) { // a third of the pods leave: their positions of the first round must read 0 now
                Map<String, String> present = new HashMap<>();
                for (int i = 0; i < computing.size(); i++) {
                    if (i % 3 != 0) {
                        present.put(computing.get(i).id(), computing.get(i).address());
                    }
                }
                model.retainOnly(present);
            }
            PrefixMatch byId = model.match(prompt, computing, 16);
            PrefixMatch byPosition = model.match(prompt, computing, 16, reusable, slots.computingPositions());
            List<Pod> shuffled = new ArrayList<>(snapshot.pods());
            java.util.Collections.shuffle(shuffled, new java.util.Random(round));
            for (Pod pod : shuffled) {
                assertThat(byPosition.blocks(pod)).as(pod.id()).isEqualTo(byId.blocks(pod));
                assertThat(byPosition.percent(pod)).as(pod.id()).isEqualTo(byId.percent(pod));
            }
            Pod sameId = pod("p5").prefill("rs5").build(); // an equal pod that is not the snapshot's object
            assertThat(byPosition.blocks(sameId)).as("found by id").isEqualTo(byId.blocks(sameId)).isPositive();
        }
    }
}
