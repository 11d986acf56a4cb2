package io.pdgateway.server.kvevents;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.server.front.TokenIdArray;
import io.pdgateway.server.http.OnEventLoop;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Asks an engine's own {@code /tokenize} endpoint for a prompt's tokens (the bodies are built by the caller). Shapes
 * (vLLM {@code vllm/entrypoints/openai/protocol.py} TokenizeCompletionRequest / TokenizeChatRequest / TokenizeResponse;
 * SGLang's {@code /tokenize} in its HTTP server):
 * <ul>
 *   <li>text: {@code {"model", "prompt", "add_special_tokens"}}, both engines;
 *   <li>chat (vLLM only; SGLang's endpoint takes prompts only): {@code {"model", "messages",
 *       "add_generation_prompt": true, "add_special_tokens": false}}, the engine applying its chat template;
 *   <li>answer: {@code {"tokens": [...], "count": n, "max_model_len": m}} (vLLM may add {@code token_strs}).
 * </ul>
 * Asks only the address it is given (a routable pod from discovery, or the operator's tokenizer server), never one
 * from a request. Non-blocking.
 */
public final class EngineTokenizeClient {
    public static final String PATH = "/tokenize";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Answers longer than this are read on a worker thread: a long prompt's ids take a millisecond or more. */
    static final int PARSE_INLINE_MAX_BYTES = 64 * 1024;

    private final Vertx vertx;
    private final Supplier<HttpClient> http;
    private final long timeoutMs;

    /**
     * @param http the client for the calling thread (a serving event loop's own, so a request's call stays on its loop)
     * @param timeoutMs connect and idle bound of each call
     */
    public EngineTokenizeClient(Vertx vertx, Supplier<HttpClient> http, long timeoutMs) {
        this.vertx = vertx;
        this.http = http;
        this.timeoutMs = timeoutMs;
    }

    /** The tokens for a {@code /tokenize} body of one of the shapes above, already encoded. */
    public Future<int[]> post(String host, int port, boolean ssl, Buffer body) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port)
                .setSsl(ssl).setURI(PATH).putHeader("content-type", "application/json").setIdleTimeout(timeoutMs)
                .setConnectTimeout(timeoutMs);
        return OnEventLoop.call(vertx, () -> http.get().request(options)
                .compose(req -> req.send(body))
                .compose(resp -> resp.body().compose(buf -> {
                    if (resp.statusCode() != 200) {
                        return Future.failedFuture(PATH + " answered " + resp.statusCode() + ": "
                                + abbreviated(buf));
                    }
                    return buf.length() <= PARSE_INLINE_MAX_BYTES ? parse(buf)
                            : vertx.<Future<int[]>>executeBlocking(() -> parse(buf), false).compose(ids -> ids);
                })));
    }

    /** {@link #tokens} as a future: its failure carries the reason. */
    static Future<int[]> parse(Buffer buf) {
        try {
            return Future.succeededFuture(tokens(buf.getBytes()));
        } catch (IOException e) {
            return Future.failedFuture(e.getMessage());
        }
    }

    /**
     * The answer's {@code tokens}, read as a stream of numbers rather than a tree: a long prompt's answer holds tens of
     * thousands of them.
     *
     * @throws IOException saying what the answer lacks: not JSON, no tokens array, a token that is not an id
     */
    public static int[] tokens(byte[] answer) throws IOException {
        try (JsonParser parser = JSON.getFactory().createParser(answer)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(PATH + " answer is not a JSON object");
            }
            int[] ids = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (!field.equals("tokens")) {
                    parser.skipChildren();
                    continue;
                }
                if (value != JsonToken.START_ARRAY) {
                    throw new IOException(PATH + " answer has no tokens array");
                }
                ids = TokenIdArray.read(parser);
                if (ids == null) {
                    throw new IOException(PATH + " answer holds a token that is not an id: " + parser.getText());
                }
            }
            if (ids == null) {
                throw new IOException(PATH + " answer has no tokens array");
            }
            return ids;
        } catch (JsonProcessingException e) {
            throw new IOException(PATH + " answer is not JSON: " + e.getMessage(), e);
        }
    }

    /** An error answer as a log line can carry it: an engine's error body, cut. */
    private static String abbreviated(Buffer buf) {
        return abbreviated(buf.toString(StandardCharsets.UTF_8));
    }

    /** An engine's answer as a message can quote it: its first 200 characters. */
    public static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
