package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.TopLevelJson;
import java.nio.charset.StandardCharsets;

/**
 * A validated OpenAI request. Only what routing reads was taken from the body when it was checked; the prompt text
 * and the body as a tree are made on first use, since most requests need neither (a standard pod gets {@link #raw()}
 * as sent, PD legs are the raw bytes with top-level edits, and only prefix-aware policies read the text). Used on
 * one event loop at a time; a worker that measures the prompt is handed the request through the event loop's queue.
 */
public final class OpenAiRequest {
    /** The most completions {@link #streamShape} believes a request asks for; beyond it, one. */
    static final int MAX_CHOICES = 128;
    private final String path;
    private final byte[] raw;
    private final String model;
    private final boolean stream;
    private final int promptLength;
    private final int promptTokenIds;
    private volatile String promptText;
    private volatile ObjectNode body;
    /** The body's top-level members as the validating scan found them, or null (then read from {@code raw}). */
    private final TopLevelJson members;
    /** Where the prompt's parts lie in {@code raw} as the validating scan found them, or null (then scanned again). */
    private final PromptParts promptParts;

    /**
     * @param raw the client's exact body bytes (valid JSON, checked): forwarded unchanged wherever no rewrite is needed
     * @param promptText the prompt text when already built, else null (built from {@code raw} on first use)
     * @param promptLength the length of the prompt text in characters
     * @param promptTokenIds the prompt's length when the client sent token ids instead of text, else -1
     * @param members {@code raw}'s top-level members if already read, else null
     * @param promptParts where the prompt's parts lie in {@code raw} if already read, else null
     */
    OpenAiRequest(String path, byte[] raw, String model, boolean stream, String promptText, int promptLength,
            int promptTokenIds, TopLevelJson members, PromptParts promptParts) {
        this.path = path;
        this.raw = raw;
        this.model = model;
        this.stream = stream;
        this.promptText = promptText;
        this.promptLength = promptLength;
        this.promptTokenIds = promptTokenIds;
        this.members = members;
        this.promptParts = promptParts;
    }

    public String path() {
        return path;
    }

    /** The client's exact body bytes, less any KV-location fields the gateway dropped. */
    public byte[] raw() {
        return raw;
    }

    public String model() {
        return model;
    }

    public boolean stream() {
        return stream;
    }

    /** The text bucketing counts tokens over: message contents joined by spaces, or the prompt. */
    public String promptText() {
        String text = promptText;
        if (text == null) {
            text = OpenAiRequestParser.promptText(path, raw);
            promptText = text;
        }
        return text;
    }

    /**
     * {@link #promptText()}'s UTF-8 bytes, copied from where the validating scan found the prompt's parts in the body,
     * without parsing it again or building the text: what the character tokenizer hashes. Made afresh on each call,
     * not kept: a request is measured once, and a long prompt kept beside its body would double what it holds.
     */
    public PromptUtf8 promptUtf8() {
        PromptParts parts = promptParts != null ? promptParts : OpenAiRequestParser.promptParts(path, raw);
        return parts.utf8(raw);
    }

    /** {@link #promptText()}'s length in characters, known without building the text. */
    public int promptLength() {
        return promptLength;
    }

    /** The prompt's length when the client sent token ids instead of text, else -1. */
    public int promptTokenIds() {
        return promptTokenIds;
    }

    /**
     * The body's top-level members with no edits yet, for an engine adapter's PD legs: the validating scan noted them,
     * so the body is not read again.
     */
    public TopLevelJson members() {
        if (members != null) {
            return members.copy();
        }
        try {
            return TopLevelJson.parse(raw);
        } catch (EngineProtocolException e) {
            throw new IllegalStateException("a validated body no longer parses", e);
        }
    }

    /**
     * How the answer streams, as vLLM, SGLang and TensorRT-LLM stream one: the completions each step carries, and the
     * events that carry no token. Nothing routes by it; the answer's phase times read it.
     *
     * @param choices the body's {@code n} when it is an integer from 1 to {@link #MAX_CHOICES}, else 1 (an engine
     *     refuses a bad one)
     * @param eventsWithoutTokens a chat stream's role chunk for each choice, and the usage chunk
     *     {@code stream_options.include_usage} asks for
     */
    public record StreamShape(int choices, int eventsWithoutTokens) {}

    /** This request's {@link StreamShape}, from the body's top-level members, read once. */
    public StreamShape streamShape() {
        TopLevelJson read = members != null ? members : members();
        int choices = choices(read.rawValue("n"));
        int withoutTokens = OpenAiRequestParser.CHAT_PATH.equals(path) ? choices : 0;
        return new StreamShape(choices, includeUsage(read.rawValue("stream_options")) ? withoutTokens + 1
                : withoutTokens);
    }

    private static int choices(byte[] n) {
        if (n == null || n.length == 0 || n.length > 3) {
            return 1;
        }
        int value = 0;
        for (byte b : n) {
            if (b < '0' || b > '9') {
                return 1;
            }
            value = value * 10 + (b - '0');
        }
        return value >= 1 && value <= MAX_CHOICES ? value : 1;
    }

    private static boolean includeUsage(byte[] options) {
        if (options == null || options.length == 0 || options[0] != '{') {
            return false; // absent, null, or not an object (which an engine refuses)
        }
        try {
            byte[] flag = TopLevelJson.parse(options).rawValue("include_usage");
            return flag != null && new String(flag, StandardCharsets.US_ASCII).equals("true");
        } catch (EngineProtocolException e) {
            return false;
        }
    }

    /** The body as a tree (key order kept, exact numbers), for rendering a model's chat template over the messages. */
    public ObjectNode body() {
        ObjectNode tree = body;
        if (tree == null) {
            try {
                tree = JsonBodies.parseObject(raw);
            } catch (EngineProtocolException e) {
                throw new IllegalStateException("a validated body no longer parses", e);
            }
            body = tree;
        }
        return tree;
    }
}
