package io.pdgateway.server.kvevents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.server.http.OnEventLoop;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The fallback when the gateway has no tokenizer file for a model: asks the engine's own {@code /tokenize} endpoint.
 * Shapes (vLLM {@code vllm/entrypoints/openai/protocol.py} TokenizeCompletionRequest / TokenizeChatRequest /
 * TokenizeResponse; SGLang's {@code /tokenize} in its HTTP server):
 * <ul>
 *   <li>text: {@code {"model", "prompt", "add_special_tokens"}}, both engines;
 *   <li>chat (vLLM only; SGLang's endpoint takes prompts only): {@code {"model", "messages",
 *       "add_generation_prompt": true, "add_special_tokens": false}}, the engine applying its chat template;
 *   <li>answer: {@code {"tokens": [...], "count": n, "max_model_len": m}} (vLLM may add {@code token_strs}).
 * </ul>
 * Asks only the pod it is given (a routable pod from discovery), never an address from the request. Non-blocking.
 */
public final class EngineTokenizeClient {
    public static final String PATH = "/tokenize";
    /** Each call is given this long: tokenizing is far faster than any prefill it could steer. */
    public static final long TIMEOUT_MS = 2_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Vertx vertx;
    private final HttpClient http;
    private final long timeoutMs;

    public EngineTokenizeClient(Vertx vertx, HttpClient http) {
        this(vertx, http, TIMEOUT_MS);
    }

    /** @param timeoutMs connect and idle bound of each call */
    public EngineTokenizeClient(Vertx vertx, HttpClient http, long timeoutMs) {
        this.vertx = vertx;
        this.http = http;
        this.timeoutMs = timeoutMs;
    }

    /** The engine's tokens for a text prompt. */
    public Future<int[]> tokenize(String host, int port, String model, String prompt, boolean addSpecialTokens) {
        ObjectNode body = JSON.createObjectNode().put("model", model).put("prompt", prompt)
                .put("add_special_tokens", addSpecialTokens);
        return post(host, port, body);
    }

    /** vLLM's tokens for chat messages with its chat template applied, as its chat endpoint would prefill them. */
    public Future<int[]> tokenizeChat(String host, int port, String model, List<? extends Map<String, ?>> messages) {
        ObjectNode body = JSON.createObjectNode().put("model", model);
        body.set("messages", JSON.valueToTree(messages));
        body.put("add_generation_prompt", true).put("add_special_tokens", false);
        return post(host, port, body);
    }

    private Future<int[]> post(String host, int port, ObjectNode body) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port)
                .setURI(PATH).putHeader("content-type", "application/json").setIdleTimeout(timeoutMs)
                .setConnectTimeout(timeoutMs);
        return OnEventLoop.call(vertx, () -> http.request(options)
                .compose(req -> req.send(Buffer.buffer(body.toString())))
                .compose(resp -> resp.body().compose(buf -> {
                    if (resp.statusCode() != 200) {
                        return Future.failedFuture(PATH + " answered " + resp.statusCode() + ": " + buf);
                    }
                    return parse(buf);
                })));
    }

    static Future<int[]> parse(Buffer buf) {
        try {
            JsonNode tokens = JSON.readTree(buf.getBytes()).get("tokens");
            if (tokens == null || !tokens.isArray()) {
                return Future.failedFuture(PATH + " answer has no tokens array");
            }
            int[] ids = new int[tokens.size()];
            for (int i = 0; i < ids.length; i++) {
                if (!tokens.get(i).canConvertToInt()) {
                    return Future.failedFuture(PATH + " answer holds a token that is not an id: " + tokens.get(i));
                }
                ids[i] = tokens.get(i).intValue();
            }
            return Future.succeededFuture(ids);
        } catch (IOException e) {
            return Future.failedFuture(PATH + " answer is not JSON: " + e.getMessage());
        }
    }
}
