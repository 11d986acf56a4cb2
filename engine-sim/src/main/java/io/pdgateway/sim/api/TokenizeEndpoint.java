package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * {@code POST /tokenize} as vLLM's and SGLang's HTTP servers serve it: {@code {"model", "prompt"}} (both engines) or
 * {@code {"model", "messages"}} (vLLM only) in, {@code {"tokens": [...], "count": n, "max_model_len": m}} out. The
 * tokens are the ones the pod's own completion endpoints compute and its KV-cache events report for the same prompt:
 * a prompt and its chat messages are read by the same code as {@code /v1/completions} and
 * {@code /v1/chat/completions}. A pod that counts text rather than tokenizing it answers one pseudo id per four
 * characters, the count it bills.
 */
public final class TokenizeEndpoint {
    public static final String PATH = "/tokenize";

    private final PodContext pod;
    private final boolean takesMessages;
    private final TextTokens text;

    /** @param takesMessages vLLM's endpoint renders chat messages; SGLang's takes prompts only */
    public TokenizeEndpoint(PodContext pod, boolean takesMessages) {
        this.pod = pod;
        this.takesMessages = takesMessages;
        this.text = pod.textTokens() == TextTokens.CHARACTERS ? TextTokens.PSEUDO_IDS : pod.textTokens();
    }

    public void register(RouteTable routes) {
        routes.add(HttpMethod.POST, PATH, this::handle);
    }

    private void handle(HttpServerRequest request, String body) {
        ObjectNode answer;
        try {
            answer = answer(body);
        } catch (ApiException e) {
            request.response().setStatusCode(e.status()).putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE)
                    .end(JsonCodec.write(pod.personality().errorBody(e.status(), e.getMessage())));
            return;
        }
        request.response().putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE).end(JsonCodec.write(answer));
    }

    private ObjectNode answer(String body) throws ApiException {
        JsonNode json = CompletionRequestParser.requestObject(body);
        int blockSize = pod.config().timing().blockSizeTokens();
        PromptTokens prompt;
        if (json.has("messages") && takesMessages) {
            prompt = new ChatApi().prompt(json, blockSize, text);
        } else if (json.hasNonNull("prompt")) {
            prompt = new TextCompletionApi().prompt(json, blockSize, text);
        } else {
            throw ApiException.badRequest(takesMessages ? "either prompt or messages is required"
                    : "prompt is required");
        }
        ObjectNode answer = JsonCodec.object();
        ArrayNode tokens = answer.putArray("tokens");
        for (long id : prompt.ids()) {
            tokens.add(id);
        }
        answer.put("count", tokens.size());
        answer.put("max_model_len", pod.config().timing().maxModelLen());
        return answer;
    }
}
