package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A validated OpenAI request.
 *
 * @param raw the client's exact body bytes: forwarded unchanged wherever no rewrite is needed
 * @param promptText the text bucketing counts tokens over (message contents joined by spaces, or the prompt)
 * @param promptTokenIds the prompt's length when the client sent token ids instead of text, else -1
 */
public record OpenAiRequest(String path, ObjectNode body, byte[] raw, String model, boolean stream, String promptText,
        int promptTokenIds) {}
