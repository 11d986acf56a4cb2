package io.pdgateway.bench.jmh;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import io.pdgateway.server.routing.PromptMeasurer;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the gateway does with a client's body on the way to the pods, apart from the network: the front's validating
 * scan (UTF-8, JSON, the fields routing reads, the prompt's length), the engine adapter's admission, and the two PD
 * legs' bodies, the decode one from a prefill answer as the engine writes it (vLLM's carries one KV block id per 16
 * prompt tokens). {@code front} is the scan alone, what every request pays, standard pods included; {@code pdLegs} is
 * the whole of a PD request's body work; {@code prefixHashes} is the scan and the prompt's prefix-block hashes with the
 * character tokenizer, what the cache-aware policies add. Chat bodies of a system and a user message, 1 KB and 200 KB.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class RequestBodyBenchmark {
    private static final String CHAT = "/v1/chat/completions";
    private static final PromptMeasurer HASHES = new PromptMeasurer(PrefixTokenizerType.CHARACTER,
            BlockHasher.DEFAULT_BLOCK_TOKENS);
    private static final PromptNeeds BLOCK_HASHES = new PromptNeeds(false, true);

    @Param({"1000", "200000"})
    int promptBytes;

    @Param({"vllm", "sglang"})
    String engine;

    private byte[] body;
    private byte[] prefillAnswer;
    private EngineAdapter adapter;
    private Pod prefill;
    private Pod decode;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        StringBuilder prompt = new StringBuilder(promptBytes);
        while (prompt.length() < promptBytes) {
            // Three-letter words, as the load generator's prompts, with a few escapes and a non-ASCII word.
            prompt.append(random.nextInt(50) == 0 ? "caf\u00e9 \\\"q\\\" " : "abc ");
        }
        body = ("{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"You are a helpful assistant.\"},"
                + "{\"role\":\"user\",\"content\":\"" + prompt + "\"}],\"max_tokens\":32,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true},\"temperature\":0.70}").getBytes(StandardCharsets.UTF_8);
        StringBuilder blocks = new StringBuilder();
        for (int b = 0; b < Math.max(1, promptBytes / 4 / 16); b++) {
            blocks.append(b == 0 ? "" : ",").append(1000 + b);
        }
        prefillAnswer = ("{\"id\":\"cmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{"
                + "\"role\":\"assistant\",\"content\":\"x\"},\"finish_reason\":\"length\"}],"
                + "\"usage\":{\"prompt_tokens\":" + promptBytes / 4 + ",\"completion_tokens\":1},"
                + "\"kv_transfer_params\":{\"do_remote_prefill\":true,\"do_remote_decode\":false,"
                + "\"remote_engine_id\":\"e1\","
                + "\"remote_block_ids\":[" + blocks + "],"
                + "\"remote_host\":\"10.0.0.1\",\"remote_port\":5600}}").getBytes(StandardCharsets.UTF_8);
        adapter = EngineAdapters.create(GatewaySettings.defaults().engines(), new SplittableRandom(1),
                InstantSource.system()).forEngine(engine);
        prefill = new Pod("ns", "p", "m", "10.0.0.1", 8000, 8000, engine, PodRole.PREFILL, "rs", null, 8998, null,
                Map.of());
        decode = new Pod("ns", "d", "m", "10.0.0.2", 8000, 8000, engine, PodRole.DECODE, "rs", null, 8998, null,
                Map.of());
    }

    @Benchmark
    public OpenAiRequest front() throws OpenAiRequestParser.Rejected {
        return OpenAiRequestParser.parse(CHAT, body);
    }

    /** The front's scan, then the prompt's prefix-block hashes as the cache-aware policies read them. */
    @Benchmark
    public PromptFeatures prefixHashes() throws OpenAiRequestParser.Rejected {
        return HASHES.measure(OpenAiRequestParser.parse(CHAT, body), BLOCK_HASHES);
    }

    @Benchmark
    public byte[] pdLegs() throws OpenAiRequestParser.Rejected, EngineProtocolException {
        OpenAiRequest request = OpenAiRequestParser.parse(CHAT, body);
        LegRequest legs = new LegRequest(CHAT, request.raw(), adapter.admit(request.members()), prefill, decode,
                "shfs", "req-1", null);
        LegPlan plan = adapter.plan(legs);
        return adapter.decodeBody(legs, plan, prefillAnswer);
    }
}
