package io.pdgateway.core.routing.pick;

import static io.pdgateway.core.PodBuilder.plain;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.PickRow.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.PickRow;
import io.pdgateway.core.routing.Picks;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * session-affinity: rendezvous hashing of x-aibrix-session-key over the pods, weight(pod) = mix64(FNV-1a(key + "\0" +
 * namespace/name)), the largest weight (unsigned) wins; without a key, or with one over 256 UTF-8 bytes, any pod
 * uniformly. Covers: a key's pod worked out from the weights, independent of list order and of the seed, unchanged
 * when another pod leaves, moved to the runner-up when its pod leaves, the 256-byte limit counted in bytes not
 * characters, no or an empty key, keys spread evenly over pods whose names differ only in the last character, empty
 * and single candidates.
 */
class SessionAffinityPodPickerTest {
    /** 256 ASCII bytes: at the limit, still a key. */
    private static final String KEY_256 = "x".repeat(256);

    static Stream<PickRow> rows() {
        return Stream.of(
                row("no candidates_none", plain(), request().sessionKey("user-42"), Picks.NONE),
                row("no candidates without key_none", plain(), request(), Picks.NONE),
                row("single pod_it", plain("a"), request().sessionKey("user-42"), "a"),
                // Weights for "user-42": a 0x0ba0b063…, b 0x1c072ef0…, c 0x5025c645… → c, under every seed.
                row("key_largest weight", plain("a", "b", "c"), request().sessionKey("user-42"), "c"),
                // The same pods listed c, b, a: still c.
                row("key with pods reordered_same pod", plain("c", "b", "a"), request().sessionKey("user-42"), "c"),
                // a leaves: c's weight is still the largest → c (only the sessions of a pod that leaves move).
                row("other pod gone_same pod", plain("b", "c"), request().sessionKey("user-42"), "c"),
                // c leaves: the runner-up b (0x1c07… > 0x0ba0…).
                row("its pod gone_runner-up", plain("a", "b"), request().sessionKey("user-42"), "b"),
                // 256 bytes is a key: a 0xde02ba01…, b 0xb67b3b8f…, c 0x4e613872… → a.
                row("key of 256 bytes_sticky", plain("a", "b", "c"), request().sessionKey(KEY_256), "a"),
                // 257 bytes is ignored: any pod.
                row("key over 256 bytes_any pod", plain("a", "b", "c"), request().sessionKey(KEY_256 + "x"), "a", "b",
                        "c"),
                // 129 × "é" is 129 characters but 258 bytes: ignored.
                row("multibyte key over 256 bytes_any pod", plain("a", "b", "c"),
                        request().sessionKey("é".repeat(129)), "a", "b", "c"),
                row("no key_any pod", plain("a", "b", "c"), request(), "a", "b", "c"),
                row("empty key_any pod", plain("a", "b", "c"), request().sessionKey(""), "a", "b", "c"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void pick(PickRow row) {
        row.check(new SessionAffinityPodPicker());
    }

    static Stream<List<Pod>> podSets() {
        return Stream.of(plain("a", "b", "c"), plain("vllm-0", "vllm-1", "vllm-2"), plain("a", "b", "c", "d"));
    }

    /** 3000 keys over k pods: each pod gets at least 80 % of its fair share 3000 / k (rendezvous hashing is uniform). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("podSets")
    void manyKeys_spreadEvenly(List<Pod> pods) {
        Map<String, Integer> sessions = new TreeMap<>();
        for (int i = 0; i < 3000; i++) {
            sessions.merge(SessionAffinityPodPicker.pick("session-" + i, pods, new SplittableRandom(i)).name(), 1,
                    Integer::sum);
        }
        for (Pod pod : pods) {
            assertThat(sessions.getOrDefault(pod.name(), 0)).as("sessions per pod: %s", sessions)
                    .isGreaterThanOrEqualTo(3000 * 8 / 10 / pods.size());
        }
    }
}
