package io.pdgateway.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import io.pdgateway.sim.kvevents.BundledTokenizer;
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
 * What rendering a chat request with its model's chat template costs, the step a gateway with
 * {@code PD_GATEWAY_PREFIX_CACHE_CHAT_TEMPLATES} takes before tokenizing every chat request (and engine-sim's
 * tokenizing pods take before computing one): the bundled Llama 3-format template over a conversation of {@code turns}
 * messages after a system prompt, each about a kilobyte.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ChatTemplateBenchmark {
    @Param({"2", "12"})
    int turns;

    private ChatTemplate template;
    private JsonNode request;

    @Setup
    public void setUp() {
        template = BundledTokenizer.chatTemplate();
        ObjectNode body = new ObjectMapper().createObjectNode().put("model", "m");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", words("system", 200));
        for (int turn = 0; turn < turns; turn++) {
            messages.addObject().put("role", turn % 2 == 0 ? "user" : "assistant").put("content", words("t" + turn, 200));
        }
        request = body;
    }

    private static String words(String head, int count) {
        StringBuilder text = new StringBuilder(head);
        for (int i = 0; i < count; i++) {
            text.append(' ').append("w").append(i % 37);
        }
        return text.toString();
    }

    @Benchmark
    public String render() throws TokenizerFormatException {
        return template.renderRequest(request);
    }
}
