package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * The decoder against hand-written msgpack in every layout the engines have published (engine-sim/README.md, "KV-cache
 * events on the wire"): vLLM's tagged arrays and tagged maps, SGLang's shorter arrays, integer and byte hashes, and the
 * payloads that must be counted and skipped rather than thrown into the subscriber's loop.
 */
class KvEventDecoderTest {

    /** vLLM's integer mode sends the low 64 bits of the digest unsigned: above Long.MAX_VALUE it is a msgpack uint64. */
    private static final BigInteger BIG_HASH = new BigInteger("15760518052499183552");

    @Test
    void vllmArrayLayout_decodesEveryField() throws Exception {
        byte[] payload = pack(p -> {
            p.packArrayHeader(3).packDouble(1789095808.5);
            p.packArrayHeader(3);
            // ["BlockStored", hashes, parent, tokens, block_size, lora_id, medium, lora_name]
            p.packArrayHeader(8).packString("BlockStored");
            p.packArrayHeader(2).packBigInteger(BIG_HASH).packLong(7);
            p.packNil();
            p.packArrayHeader(4).packInt(1).packInt(2).packInt(3).packInt(4);
            p.packInt(2).packNil().packString("GPU").packNil();
            p.packArrayHeader(3).packString("BlockRemoved").packArrayHeader(1).packLong(7).packString("GPU");
            p.packArrayHeader(1).packString("AllBlocksCleared");
            p.packInt(2);
        });

        KvEventBatch batch = KvEventDecoder.decode(payload);

        assertThat(batch.ts()).isEqualTo(1789095808.5);
        assertThat(batch.dataParallelRank()).isEqualTo(2);
        assertThat(batch.events()).hasSize(3);
        BlockStored stored = (BlockStored) batch.events().get(0);
        assertThat(stored.blockHashes()).containsExactly(BIG_HASH.longValue(), 7L);
        assertThat(stored.parentBlockHash()).isNull();
        assertThat(stored.tokenIds()).containsExactly(1, 2, 3, 4);
        assertThat(stored.blockSize()).isEqualTo(2);
        assertThat(stored.medium()).isEqualTo("GPU");
        assertThat(stored.loraName()).isNull();
        BlockRemoved removed = (BlockRemoved) batch.events().get(1);
        assertThat(removed.blockHashes()).containsExactly(7L);
        assertThat(batch.events().get(2)).isInstanceOf(AllBlocksCleared.class);
        assertThat(batch.unknownEvents() + batch.malformedEvents()).isZero();
    }

    @Test
    void sglangShortArrays_withoutRankOrMedium_decode() throws Exception {
        // SGLang's first layout: [ts, events]; BlockStored has five fields, BlockRemoved one; int64 hashes, signed.
        byte[] payload = pack(p -> {
            p.packArrayHeader(2).packDouble(1.0).packArrayHeader(2);
            p.packArrayHeader(6).packString("BlockStored").packArrayHeader(1).packLong(-5L).packLong(-4L)
                    .packArrayHeader(1).packInt(9).packInt(1).packNil();
            p.packArrayHeader(2).packString("BlockRemoved").packArrayHeader(1).packLong(-5L);
        });

        KvEventBatch batch = KvEventDecoder.decode(payload);

        assertThat(batch.dataParallelRank()).isEqualTo(-1);
        BlockStored stored = (BlockStored) batch.events().get(0);
        assertThat(stored.blockHashes()).containsExactly(-5L);
        assertThat(stored.parentBlockHash()).isEqualTo(-4L);
        assertThat(stored.blockSize()).isEqualTo(1);
        assertThat(stored.medium()).isNull();
        assertThat(((BlockRemoved) batch.events().get(1)).medium()).isNull();
    }

    @Test
    void taggedMaps_anyKeyOrder_unknownKeysSkipped() throws Exception {
        // vLLM after its switch to maps: tag under "type" (here last), fields by name, new keys this decoder ignores.
        byte[] payload = pack(p -> {
            p.packArrayHeader(3).packDouble(2.0).packArrayHeader(2);
            p.packMapHeader(9);
            p.packString("block_hashes").packArrayHeader(1).packLong(11);
            p.packString("parent_block_hash").packLong(10);
            p.packString("token_ids").packArrayHeader(2).packInt(5).packInt(6);
            p.packString("block_size").packInt(2);
            p.packString("extra_keys").packArrayHeader(1).packNil();
            p.packString("group_idx").packInt(0);
            p.packString("kv_cache_spec_kind").packString("full_attention");
            p.packString("cache_salt").packMapHeader(1).packString("tenant").packString("a");
            p.packString("type").packString("BlockStored");
            p.packMapHeader(3).packString("type").packString("BlockRemoved").packString("block_hashes")
                    .packArrayHeader(1).packLong(11).packString("medium").packString("CPU");
            p.packInt(0);
        });

        KvEventBatch batch = KvEventDecoder.decode(payload);

        BlockStored stored = (BlockStored) batch.events().get(0);
        assertThat(stored.parentBlockHash()).isEqualTo(10L);
        assertThat(stored.tokenIds()).containsExactly(5, 6);
        assertThat(stored.groupIdx()).isZero();
        assertThat(stored.cacheSpecKind()).isEqualTo("full_attention");
        assertThat(((BlockRemoved) batch.events().get(1)).medium()).isEqualTo("CPU");
        assertThat(batch.unknownEvents() + batch.malformedEvents()).isZero();
    }

    @Test
    void byteHashes_foldToTheIntegerVllmWouldSend() throws Exception {
        byte[] digest = new byte[32];
        for (int i = 0; i < digest.length; i++) {
            digest[i] = (byte) (i * 37 + 1);
        }
        // vLLM's integer mode: int.from_bytes(digest, "big") masked to 64 bits = the last eight bytes.
        long expected = new BigInteger(1, digest).longValue();
        byte[] payload = pack(p -> {
            p.packArrayHeader(2).packDouble(1).packArrayHeader(1);
            p.packArrayHeader(5).packString("BlockStored").packArrayHeader(1).packBinaryHeader(32).writePayload(digest);
            p.packBinaryHeader(32).writePayload(digest).packArrayHeader(1).packInt(1).packInt(1);
        });

        BlockStored stored = (BlockStored) KvEventDecoder.decode(payload).events().get(0);

        assertThat(stored.blockHashes()).containsExactly(expected);
        assertThat(stored.parentBlockHash()).isEqualTo(expected);
        assertThat(KvEventDecoder.foldHash(new byte[] {1, 2})).isEqualTo(0x0102L);
    }

    @Test
    void unknownAndMalformedEvents_areCountedAndTheRestDecoded() throws Exception {
        byte[] payload = pack(p -> {
            p.packArrayHeader(2).packDouble(1).packArrayHeader(6);
            p.packArrayHeader(2).packString("BlockPinned").packArrayHeader(1).packInt(1); // a newer engine's event
            p.packArrayHeader(3).packString("BlockStored").packArrayHeader(1).packInt(1).packNil(); // no token_ids
            p.packArrayHeader(2).packString("BlockRemoved").packString("not-a-list");
            p.packInt(42); // not an event at all
            p.packMapHeader(1).packString("block_hashes").packArrayHeader(0); // a map without its tag
            p.packArrayHeader(1).packString("AllBlocksCleared");
        });

        KvEventBatch batch = KvEventDecoder.decode(payload);

        assertThat(batch.events()).containsExactly(new AllBlocksCleared());
        assertThat(batch.unknownEvents()).isEqualTo(1);
        assertThat(batch.malformedEvents()).isEqualTo(4);
    }

    @Test
    void firstVllmLayout_numTokensPerBlock_andBigramTokens() throws Exception {
        byte[] payload = pack(p -> {
            p.packArrayHeader(2).packDouble(1).packArrayHeader(1);
            p.packArrayHeader(6).packString("BlockStored").packArrayHeader(2).packInt(1).packInt(2).packNil();
            p.packArrayHeader(4);
            for (int t = 0; t < 4; t++) {
                p.packArrayHeader(2).packInt(100 + t).packInt(200 + t); // SGLang bigram page: (token, next token)
            }
            p.packArrayHeader(2).packInt(2).packInt(2).packNil();
        });

        BlockStored stored = (BlockStored) KvEventDecoder.decode(payload).events().get(0);

        assertThat(stored.blockSize()).isEqualTo(2);
        assertThat(stored.tokenIds()).containsExactly(100, 101, 102, 103);
    }

    @Test
    void mapEncodedBatch_decodes() throws Exception {
        byte[] payload = pack(p -> p.packMapHeader(3).packString("ts").packInt(5).packString("events")
                .packArrayHeader(1).packArrayHeader(1).packString("AllBlocksCleared")
                .packString("data_parallel_rank").packNil());

        KvEventBatch batch = KvEventDecoder.decode(payload);

        assertThat(batch.ts()).isEqualTo(5.0);
        assertThat(batch.events()).hasSize(1);
        assertThat(batch.dataParallelRank()).isEqualTo(-1);
    }

    @Test
    void payloadsThatAreNotBatches_throwTheCheckedException() throws Exception {
        byte[] valid = pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(1)
                .packString("AllBlocksCleared"));
        byte[][] bad = {
            new byte[0],
            pack(p -> p.packInt(3)),
            pack(p -> p.packArrayHeader(1).packDouble(1)),
            pack(p -> p.packArrayHeader(2).packString("ts").packArrayHeader(0)),
            pack(p -> p.packArrayHeader(2).packDouble(1).packInt(0)),
            Arrays.copyOf(valid, valid.length - 3),
            concat(valid, new byte[] {1}),
            // an array32 header claiming two billion events in a 20-byte payload must not allocate them
            concat(pack(p -> p.packArrayHeader(2).packDouble(1)), new byte[] {(byte) 0xdd, 0x7f, 0, 0, 0}),
            new byte[] {(byte) 0xc1},
        };
        for (byte[] payload : bad) {
            assertThatThrownBy(() -> KvEventDecoder.decode(payload)).as(Arrays.toString(payload))
                    .isInstanceOf(MalformedBatchException.class);
        }
    }

    interface Writer {
        void write(MessageBufferPacker packer) throws IOException;
    }

    static byte[] pack(Writer writer) throws IOException {
        try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
            writer.write(packer);
            return packer.toByteArray();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
