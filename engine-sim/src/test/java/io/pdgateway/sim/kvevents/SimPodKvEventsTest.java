package io.pdgateway.sim.kvevents;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.TimingProfile;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A simulated pod started with --kv-events-config publishes its prefix cache's changes on a real ZeroMQ socket: a
 * prefill's full blocks as BlockStored with the bundled tokenizer's ids of the prompt, evictions (a small KV cache)
 * as BlockRemoved, SGLang's /flush_cache as AllBlocksCleared, one batch per step numbered from 0. Read back through the replay
 * socket with plain msgpack, not the gateway's decoder.
 */
class SimPodKvEventsTest {
    private static final String CONFIG = "{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\","
            + "\"endpoint\":\"tcp://127.0.0.1:*\",\"replay_endpoint\":\"tcp://127.0.0.1:*\"}";
    private final Vertx vertx = Vertx.vertx();
    private final ZContext zmq = new ZContext(1);
    private SimPod pod;

    @AfterEach
    void tearDown() {
        if (pod != null) {
            await(pod.close());
        }
        zmq.close();
        await(vertx.close());
    }

    /** Starts the pod; its replay endpoint is asked through a fresh DEALER per round (no slow-joiner race, unlike a SUB). */
    private String start(String engine, int kvTokens) {
        pod = await(SimPod.start(vertx, SimConfig.builder().engine(engine).timeScale(FAST)
                .timing(TimingProfile.llama3_8b_h100().withKvCapacityTokens(kvTokens))
                .kvEvents(KvEventsConfig.parse(CONFIG)).build()));
        return pod.kvEvents().replayEndpoint();
    }

    /** Batch {@code seq}'s events, asked of the replay socket until the pod has published it (bounded wait). */
    private List<Value> batch(String endpoint, long seq) {
        List<List<Value>> found = new ArrayList<>();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
            try (ZMQ.Socket replay = zmq.createSocket(SocketType.DEALER)) {
                replay.setReceiveTimeOut(2_000);
                replay.setLinger(0);
                replay.connect(endpoint);
                return round(replay, seq, found);
            }
        });
        return found.get(0);
    }

    /** One replay request and its answer; false when batch {@code seq} is not (yet) among what came back. */
    private static boolean round(ZMQ.Socket replay, long seq, List<List<Value>> found) throws IOException {
        replay.send(new byte[0], ZMQ.SNDMORE);
        replay.send(ByteBuffer.allocate(Long.BYTES).putLong(seq).array(), 0);
        List<List<Value>> answers = new ArrayList<>();
        while (true) {
            byte[] empty = replay.recv();
            if (empty == null) {
                // No answer within the receive timeout: ask again on a new connection, as a replay client does
                // (seen in full builds: a pod's replay socket did not answer one connection).
                return false;
            }
            assertThat(empty).isEmpty();
            long got = ByteBuffer.wrap(replay.recv()).getLong();
            byte[] payload = replay.recv();
            if (got == -1) {
                break;
            }
            if (got == seq) {
                try (MessageUnpacker in = MessagePack.newDefaultUnpacker(payload)) {
                    answers.add(in.unpackValue().asArrayValue().get(1).asArrayValue().list());
                }
            }
        }
        if (answers.isEmpty()) {
            return false;
        }
        found.add(answers.get(0));
        return true;
    }

    private static String tag(Value event) {
        return event.isArrayValue() ? event.asArrayValue().get(0).asStringValue().asString()
                : event.asMapValue().map().get(ValueFactory.newString("type")).asStringValue().asString();
    }

    private static Value field(Value event, int arrayIndex, String name) {
        if (event.isArrayValue()) {
            return event.asArrayValue().get(arrayIndex);
        }
        MapValue map = event.asMapValue();
        return map.map().get(ValueFactory.newString(name));
    }

    private static String completion(String prompt) {
        return "{\"model\":\"my-model\",\"prompt\":\"" + prompt + "\",\"max_tokens\":2}";
    }

    private static String text(String head, int words) {
        StringBuilder out = new StringBuilder(head);
        for (int i = 0; i < words; i++) {
            out.append(" routing").append(i);
        }
        return out.toString();
    }

    @Test
    void vllmPod_publishesStoredBlocksWithTheTokenizersIds_andEvictions() throws Exception {
        String replay = start("vllm", 512);
        String prompt = text("first", 110);
        int[] ids = BundledTokenizer.get().encodeAddingSpecialTokens(prompt); // as a completion's prompt, BOS first
        assertThat(ids.length).as("over half the 512-token cache, within the context").isBetween(272, 480);
        assertThat(post(pod, "/v1/completions", completion(prompt)).statusCode()).isEqualTo(200);

        List<Value> events = batch(replay, 0);
        assertThat(events).hasSize(1);
        Value stored = events.get(0);
        assertThat(tag(stored)).isEqualTo("BlockStored");
        int blocks = ids.length / 16;
        assertThat(field(stored, 1, "block_hashes").asArrayValue().size()).isEqualTo(blocks);
        assertThat(field(stored, 2, "parent_block_hash").isNilValue()).as("the sequence's first block").isTrue();
        List<Value> tokens = field(stored, 3, "token_ids").asArrayValue().list();
        assertThat(tokens.stream().mapToInt(v -> v.asIntegerValue().toInt()).toArray())
                .isEqualTo(Arrays.copyOf(ids, blocks * 16));
        assertThat(field(stored, 4, "block_size").asIntegerValue().toInt()).isEqualTo(16);

        // Another long prompt overflows the 32-block cache: the least recent blocks (the first prompt's) go first.
        String second = text("second", 110);
        assertThat(post(pod, "/v1/completions", completion(second)).statusCode()).isEqualTo(200);
        List<Value> next = batch(replay, 1);
        List<String> tags = new ArrayList<>();
        next.forEach(e -> tags.add(tag(e)));
        assertThat(tags).containsExactly("BlockRemoved", "BlockStored");
        Value firstEvicted = field(next.get(0), 1, "block_hashes").asArrayValue().get(0);
        assertThat(firstEvicted).isEqualTo(field(stored, 1, "block_hashes").asArrayValue().get(0));
    }

    @Test
    void sglangPod_flushCache_publishesAllBlocksCleared() throws Exception {
        String replay = start("sglang", 4_096);
        assertThat(post(pod, "/v1/completions", completion(text("one", 40))).statusCode()).isEqualTo(200);
        assertThat(tag(batch(replay, 0).get(0))).isEqualTo("BlockStored");

        assertThat(get(pod, "/flush_cache").statusCode()).isEqualTo(200);
        List<Value> cleared = batch(replay, 1);
        assertThat(cleared).hasSize(1);
        assertThat(tag(cleared.get(0))).isEqualTo("AllBlocksCleared");
    }
}
