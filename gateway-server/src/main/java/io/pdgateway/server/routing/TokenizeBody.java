package io.pdgateway.server.routing;

import io.pdgateway.engine.TopLevelJson;
import io.pdgateway.server.front.OpenAiRequest;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code /tokenize} body that asks an engine for the tokens it would prefill for a client's request, built from the
 * client's own bytes (its members copied as they are, not parsed and written again):
 * <ul>
 *   <li>chat: {@code model}, {@code messages} and what changes how vLLM renders them ({@code tools},
 *       {@code documents}, {@code chat_template_kwargs}, {@code add_generation_prompt}, default true,
 *       {@code continue_final_message}), with {@code add_special_tokens} false, as vLLM's chat endpoint prefills;
 *   <li>completions: {@code model} and the prompt string, with {@code add_special_tokens} true, as the completions
 *       endpoint prefills. A batch of prompts (a list) has no one prompt to ask for: none.
 * </ul>
 * A client that sets {@code add_special_tokens} itself has its own choice asked for, as the engine honours it.
 */
final class TokenizeBody {
    /** Chat members that change the rendered prompt, besides the messages. */
    private static final List<String> CHAT_RENDERING = List.of("tools", "documents", "chat_template_kwargs",
            "continue_final_message");

    private TokenizeBody() {}

    /** The body, or null when the request has no single prompt to ask for. */
    static Buffer of(OpenAiRequest request, boolean chat) {
        TopLevelJson members = request.members();
        byte[] prompt = chat ? null : members.rawValue("prompt");
        if (!chat && (prompt == null || prompt.length == 0 || prompt[0] != '"')) {
            return null;
        }
        Buffer body = Buffer.buffer(request.raw().length + 128);
        body.appendString("{\"model\":").appendBytes(members.rawValue("model"));
        if (chat) {
            body.appendString(",\"messages\":").appendBytes(members.rawValue("messages"));
            for (String name : CHAT_RENDERING) {
                byte[] value = members.rawValue(name);
                if (value != null) {
                    body.appendString(",\"" + name + "\":").appendBytes(value);
                }
            }
            byte[] generationPrompt = members.rawValue("add_generation_prompt");
            body.appendString(",\"add_generation_prompt\":")
                    .appendBytes(generationPrompt != null ? generationPrompt : ascii("true"));
        } else {
            body.appendString(",\"prompt\":").appendBytes(prompt);
        }
        byte[] specialTokens = members.rawValue("add_special_tokens");
        return body.appendString(",\"add_special_tokens\":")
                .appendBytes(specialTokens != null ? specialTokens : ascii(chat ? "false" : "true")).appendString("}");
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
