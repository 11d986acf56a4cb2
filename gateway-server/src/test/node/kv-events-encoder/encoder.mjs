// An independent KV-event publisher: what vLLM's ZmqEventPublisher puts on the wire, written from its documented
// format with npm's zeromq and @msgpack/msgpack, so the gateway's decoder is checked against an encoder it shares no
// code with. Protocol with the test (stdin/stdout, one line each):
//   out: {"endpoint": "...", "replay": "..."}   once both sockets are bound
//   in:  "go"                                     the subscriber has seen a warm-up batch; publish the script
//   out: "done"                                   every scripted batch is sent (one only to the replay buffer)
// The script exits when stdin closes.
import { Publisher, Router } from "zeromq";
import { encode } from "@msgpack/msgpack";
import { createInterface } from "node:readline";

const TOPIC = "kv-events";
const buffer = []; // [seq, payload] kept for replay, as vLLM's buffer_steps deque
let seq = 0n;

const tokens = (from, to) => Array.from({ length: to - from }, (_, k) => 7 * (from + k) + 3);
const seqBytes = (s) => { const b = Buffer.alloc(8); b.writeBigInt64BE(s); return b; };
const pack = (value) => encode(value, { useBigInt64: true });

// vLLM's integer mode: unsigned 64-bit (here above 2^63, so a msgpack uint64); SGLang's: signed 64-bit.
const H0 = (1n << 64n) - 5n;
const H1 = 0x1234567890n;
const B2 = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 11) & 0xff); // vLLM's bytes mode: the 32-byte digest
const H3 = -77n;
const H4 = 4444n;

const pub = new Publisher();
await pub.bind("tcp://127.0.0.1:*");
const router = new Router();
await router.bind("tcp://127.0.0.1:*");
console.log(JSON.stringify({ endpoint: pub.lastEndpoint, replay: router.lastEndpoint }));

async function publish(batch, { lost = false } = {}) {
  const payload = pack(batch);
  const s = seq++;
  buffer.push([s, payload]);
  if (!lost) await pub.send([TOPIC, seqBytes(s), payload]);
}

(async () => {
  for await (const [id, , start] of router) {
    const from = start.readBigInt64BE();
    for (const [s, payload] of buffer) {
      if (s >= from) await router.send([id, "", seqBytes(s), payload]);
    }
    await router.send([id, "", seqBytes(-1n), ""]);
  }
})();

const ts = () => Date.now() / 1000 + 0.25;
let go = false;
const input = createInterface({ input: process.stdin });
input.on("line", (line) => { if (line.trim() === "go") go = true; });
input.on("close", () => process.exit(0));

// Warm-up until the subscriber has joined: a removal of a block never stored, which changes nothing.
while (!go) {
  await publish([ts(), [["BlockRemoved", [999n], "GPU"]], 0]);
  await new Promise((r) => setTimeout(r, 50));
}

// vLLM's array layout (tag first): two 16-token blocks from the start of the sequence.
await publish([ts(), [["BlockStored", [H0, H1], null, tokens(0, 32), 16, null, "GPU", null]], 0]);
// vLLM's map layout, with the fields newer versions add, and an event tag no engine has sent yet.
await publish([ts(), [
  { type: "BlockStored", block_hashes: [B2], parent_block_hash: H1, token_ids: tokens(32, 48), block_size: 16,
    lora_id: null, medium: "GPU", lora_name: null, extra_keys: [null], group_idx: 0,
    kv_cache_spec_kind: "full_attention" },
  ["BlockPinned", [H1]],
], 0]);
// Lost on the way: only the replay socket can deliver it. Its parent is the byte hash, sent as bytes again.
await publish([ts(), [{ type: "BlockStored", block_hashes: [H3], parent_block_hash: B2, token_ids: tokens(48, 64),
  block_size: 16, lora_id: null, medium: "GPU", lora_name: null }], 0], { lost: true });
// SGLang's first layout: a two-element batch, five fields, then a removal with no medium.
await publish([ts(), [["BlockStored", [H4], H3, tokens(64, 80), 16, null], ["BlockRemoved", [H1]]]]);
console.log("done");
