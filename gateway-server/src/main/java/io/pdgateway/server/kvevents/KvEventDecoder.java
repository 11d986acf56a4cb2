package io.pdgateway.server.kvevents;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * Decodes the msgpack payload of one KV-event message (the third frame) into a {@link KvEventBatch}, accepting every
 * layout the engines have published (engine-sim/README.md, "KV-cache events on the wire"):
 * <ul>
 *   <li>the batch as an array {@code [ts, events, data_parallel_rank?]} (every engine so far), or as a map with those
 *       keys (should an engine drop the array layout there too);
 *   <li>each event as a tagged array {@code ["BlockStored", field, ...]} (vLLM before its map switch, SGLang before
 *       its) or a tagged map {@code {"type": "BlockStored", "block_hashes": ..., ...}} (vLLM and SGLang after);
 *   <li>trailing array fields left out (msgspec omits trailing defaults), and fields or keys this class does not know
 *       (a newer engine's additions), which are skipped;
 *   <li>block hashes as integers (signed 64-bit from SGLang, unsigned 64-bit from vLLM's default) or as bytes (vLLM
 *       with {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=0}: the 32-byte digest). Bytes are folded to their last eight,
 *       read big-endian: the very integer vLLM publishes for the same block in its integer mode.
 * </ul>
 * An event with an unknown tag or unreadable fields is counted in the batch and skipped; only a payload that is not a
 * batch at all (not msgpack, truncated, lengths past its end, trailing bytes) throws. Never allocates more than the
 * payload's size justifies. Stateless and thread-safe.
 */
public final class KvEventDecoder {
    /** msgspec's tag field name for a tagged struct encoded as a map. */
    static final String TAG_FIELD = "type";

    /** BlockStored's fields in the order of the array layout, after the tag (vLLM's order; SGLang's is a prefix). */
    private static final String[] STORED_FIELDS = {"block_hashes", "parent_block_hash", "token_ids", "block_size",
        "lora_id", "medium", "lora_name", "extra_keys", "group_idx", "kv_cache_spec_kind"};
    /** BlockRemoved's fields in the array layout, after the tag. */
    private static final String[] REMOVED_FIELDS = {"block_hashes", "medium", "group_idx"};

    private KvEventDecoder() {}

    public static KvEventBatch decode(byte[] payload) throws MalformedBatchException {
        try (MessageUnpacker in = MessagePack.newDefaultUnpacker(payload)) {
            KvEventBatch batch = new Reader(in, payload.length).batch();
            if (in.hasNext()) {
                throw new MalformedBatchException("trailing bytes after the batch");
            }
            return batch;
        } catch (IOException | MessagePackException | IllegalStateException e) {
            throw new MalformedBatchException("not a KV-event batch: " + e.getMessage(), e);
        }
    }

    /** Folds a hash sent as bytes to the 64-bit value vLLM would send for it: the last eight bytes, big-endian. */
    public static long foldHash(byte[] bytes) {
        long h = 0;
        for (int i = Math.max(0, bytes.length - Long.BYTES); i < bytes.length; i++) {
            h = (h << 8) | (bytes[i] & 0xff);
        }
        return h;
    }

    /** One payload's cursor. Reads check the next value's type first, so a wrong type never misaligns the stream. */
    private static final class Reader {
        private final MessageUnpacker in;
        private final long length;
        private int unknown;
        private int malformed;

        Reader(MessageUnpacker in, long length) {
            this.in = in;
            this.length = length;
        }

        KvEventBatch batch() throws IOException, MalformedBatchException {
            ValueType type = nextType();
            double ts = Double.NaN;
            List<KvEvent> events = null;
            int rank = -1;
            if (type == ValueType.ARRAY) {
                int n = header(in.unpackArrayHeader());
                if (n < 2) {
                    throw new MalformedBatchException("a batch array needs [ts, events], got " + n + " elements");
                }
                ts = number();
                events = events();
                if (n >= 3) {
                    rank = optionalInt(-1);
                }
                skip(n - 3);
            } else if (type == ValueType.MAP) {
                int n = header(in.unpackMapHeader());
                for (int i = 0; i < n; i++) {
                    String key = nextType() == ValueType.STRING ? in.unpackString() : null;
                    if ("ts".equals(key)) {
                        ts = number();
                    } else if ("events".equals(key)) {
                        events = events();
                    } else if ("data_parallel_rank".equals(key)) {
                        rank = optionalInt(-1);
                    } else {
                        if (key == null) {
                            in.skipValue();
                        }
                        in.skipValue();
                    }
                }
            } else {
                throw new MalformedBatchException("a batch is an array or a map, not " + type);
            }
            if (events == null || Double.isNaN(ts)) {
                throw new MalformedBatchException("a batch needs ts and events");
            }
            return new KvEventBatch(ts, events, rank, unknown, malformed);
        }

        private List<KvEvent> events() throws IOException, MalformedBatchException {
            if (nextType() != ValueType.ARRAY) {
                throw new MalformedBatchException("events is not an array");
            }
            int n = header(in.unpackArrayHeader());
            List<KvEvent> events = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                KvEvent event = event();
                if (event != null) {
                    events.add(event);
                }
            }
            return events;
        }

        /** The next event, or null when it was skipped (and counted). */
        private KvEvent event() throws IOException, MalformedBatchException {
            ValueType type = nextType();
            Fields fields = new Fields();
            String tag;
            if (type == ValueType.ARRAY) {
                int n = header(in.unpackArrayHeader());
                if (n == 0 || nextType() != ValueType.STRING) {
                    skip(n);
                    malformed++;
                    return null;
                }
                tag = in.unpackString();
                String[] names = KvEvent.BLOCK_STORED.equals(tag) ? STORED_FIELDS
                        : KvEvent.BLOCK_REMOVED.equals(tag) ? REMOVED_FIELDS : new String[0];
                for (int i = 1; i < n; i++) {
                    fields.read(i - 1 < names.length ? names[i - 1] : null);
                }
            } else if (type == ValueType.MAP) {
                int n = header(in.unpackMapHeader());
                tag = null;
                for (int i = 0; i < n; i++) {
                    if (nextType() != ValueType.STRING) {
                        in.skipValue();
                        in.skipValue();
                        continue;
                    }
                    String key = in.unpackString();
                    if (TAG_FIELD.equals(key) && nextType() == ValueType.STRING) {
                        tag = in.unpackString();
                    } else {
                        fields.read(key);
                    }
                }
                if (tag == null) {
                    malformed++;
                    return null;
                }
            } else {
                in.skipValue();
                malformed++;
                return null;
            }
            KvEvent event = switch (tag) {
                case KvEvent.BLOCK_STORED -> fields.stored();
                case KvEvent.BLOCK_REMOVED -> fields.removed();
                case KvEvent.ALL_BLOCKS_CLEARED -> new AllBlocksCleared();
                default -> {
                    unknown++;
                    yield null;
                }
            };
            if (event == null && isKnown(tag)) {
                malformed++;
            }
            return event;
        }

        private static boolean isKnown(String tag) {
            return KvEvent.BLOCK_STORED.equals(tag) || KvEvent.BLOCK_REMOVED.equals(tag)
                    || KvEvent.ALL_BLOCKS_CLEARED.equals(tag);
        }

        /** The fields of one event, by name; a value of the wrong type leaves its field unset (and flags it). */
        private final class Fields {
            long[] blockHashes;
            Long parent;
            boolean badParent;
            int[] tokenIds;
            int blockSize;
            boolean badBlockSize;
            Integer loraId;
            String loraName;
            String medium;
            Integer groupIdx;
            String kind;

            void read(String name) throws IOException, MalformedBatchException {
                if (name == null) {
                    in.skipValue();
                    return;
                }
                ValueType type = nextType();
                switch (name) {
                    case "block_hashes" -> blockHashes = type == ValueType.ARRAY ? hashes() : skipped(null);
                    case "parent_block_hash" -> {
                        if (type == ValueType.NIL) {
                            in.unpackNil();
                        } else if (type == ValueType.INTEGER || type == ValueType.BINARY) {
                            parent = hash();
                        } else {
                            badParent = skipped(true);
                        }
                    }
                    case "token_ids" -> tokenIds = type == ValueType.ARRAY ? tokens() : skipped(null);
                    case "block_size" -> blockSize();
                    case "lora_id" -> loraId = type == ValueType.INTEGER ? Integer.valueOf(in.unpackInt()) : skipped(null);
                    case "lora_name" -> loraName = type == ValueType.STRING ? in.unpackString() : skipped(null);
                    case "medium" -> medium = type == ValueType.STRING ? in.unpackString() : skipped(null);
                    case "group_idx" -> groupIdx = type == ValueType.INTEGER ? Integer.valueOf(in.unpackInt()) : skipped(null);
                    case "kv_cache_spec_kind" -> kind = type == ValueType.STRING ? in.unpackString() : skipped(null);
                    default -> in.skipValue();
                }
            }

            private <T> T skipped(T value) throws IOException {
                in.skipValue();
                return value;
            }

            /** An int, or vLLM's very first layout: num_toks_per_block, one count per block (all equal when full). */
            private void blockSize() throws IOException, MalformedBatchException {
                ValueType type = nextType();
                if (type == ValueType.INTEGER) {
                    blockSize = in.unpackInt();
                } else if (type == ValueType.ARRAY) {
                    int n = header(in.unpackArrayHeader());
                    for (int i = 0; i < n; i++) {
                        int size = nextType() == ValueType.INTEGER ? in.unpackInt() : -1;
                        if (size < 0) {
                            in.skipValue();
                        }
                        if (size <= 0 || (blockSize != 0 && size != blockSize)) {
                            badBlockSize = true;
                        }
                        blockSize = size;
                    }
                } else {
                    badBlockSize = skipped(true);
                }
            }

            BlockStored stored() {
                if (blockHashes == null || tokenIds == null || badParent || badBlockSize || blockSize < 0) {
                    return null;
                }
                return new BlockStored(blockHashes, parent, tokenIds, blockSize, loraId, loraName, medium, groupIdx,
                        kind);
            }

            BlockRemoved removed() {
                return blockHashes == null ? null : new BlockRemoved(blockHashes, medium, groupIdx);
            }
        }

        private long[] hashes() throws IOException, MalformedBatchException {
            int n = header(in.unpackArrayHeader());
            long[] hashes = new long[n];
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                ValueType type = nextType();
                if (type == ValueType.INTEGER || type == ValueType.BINARY) {
                    hashes[i] = hash();
                } else {
                    in.skipValue();
                    ok = false;
                }
            }
            return ok ? hashes : null;
        }

        private long hash() throws IOException, MalformedBatchException {
            if (nextType() == ValueType.BINARY) {
                int n = header(in.unpackBinaryHeader());
                return foldHash(in.readPayload(n));
            }
            if (in.getNextFormat() == MessageFormat.UINT64) {
                BigInteger value = in.unpackBigInteger();
                return value.longValue();
            }
            return in.unpackLong();
        }

        /** Token ids; SGLang's bigram pages (EAGLE) send each position as a pair whose first element is the token. */
        private int[] tokens() throws IOException, MalformedBatchException {
            int n = header(in.unpackArrayHeader());
            int[] tokens = new int[n];
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                ValueType type = nextType();
                if (type == ValueType.INTEGER) {
                    tokens[i] = in.unpackInt();
                } else if (type == ValueType.ARRAY) {
                    int m = header(in.unpackArrayHeader());
                    if (m > 0 && nextType() == ValueType.INTEGER) {
                        tokens[i] = in.unpackInt();
                        skip(m - 1);
                    } else {
                        skip(m);
                        ok = false;
                    }
                } else {
                    in.skipValue();
                    ok = false;
                }
            }
            return ok ? tokens : null;
        }

        private double number() throws IOException, MalformedBatchException {
            ValueType type = nextType();
            if (type == ValueType.FLOAT) {
                return in.unpackDouble();
            }
            if (type == ValueType.INTEGER) {
                return in.unpackLong();
            }
            throw new MalformedBatchException("ts is not a number but " + type);
        }

        private int optionalInt(int absent) throws IOException, MalformedBatchException {
            ValueType type = nextType();
            if (type == ValueType.INTEGER) {
                return in.unpackInt();
            }
            in.skipValue();
            return absent;
        }

        private void skip(int n) throws IOException {
            for (int i = 0; i < n; i++) {
                in.skipValue();
            }
        }

        private ValueType nextType() throws IOException, MalformedBatchException {
            if (!in.hasNext()) {
                throw new MalformedBatchException("the payload ends early");
            }
            return in.getNextFormat().getValueType();
        }

        /** Every element takes at least one byte: a header claiming more than the bytes left is a lie, not a size. */
        private int header(int n) throws MalformedBatchException {
            if (n < 0 || n > length - in.getTotalReadBytes()) {
                throw new MalformedBatchException("a length of " + n + " runs past the end of the payload");
            }
            return n;
        }
    }
}
