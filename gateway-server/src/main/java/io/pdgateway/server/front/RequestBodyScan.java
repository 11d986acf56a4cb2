package io.pdgateway.server.front;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.TopLevelJson;
import java.io.IOException;

/**
 * One streaming pass over a client body that checks it is a single valid JSON object, exactly as the tree parser
 * would (every number read as the tree reads it, nesting bounded, nothing after the object), and keeps only what
 * routing reads: the model, stream, whether a KV-location field is present, and the prompt's length in characters (or
 * its text, when asked), and where each top-level member lies ({@link TopLevelJson}, for the PD legs' edits). Nothing
 * else is materialised: the body's other strings are checked and skipped, never built, and no tree is made. A repeated
 * key counts with its last value, as in the tree. Field errors are kept, not thrown, and reported after the whole body
 * parsed, so that a syntax error anywhere wins as it did with the tree. The front tries {@link FastBodyScan} first:
 * this scan reads the bodies it leaves, and words every refusal.
 */
final class RequestBodyScan {
    /** Reads one value of a body being scanned as a tree: the body's own end is checked by the scan, not here. */
    static final ObjectReader TREE = JsonBodies.mapper().reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** The refusal of a completions prompt of another shape: vLLM's completions API takes these four. */
    static final String PROMPT_SHAPES = "\"prompt\" must be a string, a list of strings, a list of token ids or a list "
            + "of such lists";
    private final byte[] raw;
    final boolean chat;
    final boolean collectText;
    String model;
    boolean modelPresent;
    JsonToken streamToken;
    boolean streamValue;
    boolean kvLocation;
    /** The last messages (chat) or prompt (completions) seen, as the prompt it makes. */
    Prompt prompt;
    /** The body's top-level members, noted on the way. */
    TopLevelJson members;

    /** A chat's messages or a completion's prompt, read as the prompt text routing counts. */
    static final class Prompt {
        /** The client error this value earns, or null when it is valid. */
        String invalid;
        int tokenIds = -1;
        /** The text's length in chars. */
        int length;
        /** The text, when the scan collects it; else null, and the parts are noted where they lie. */
        final StringBuilder text;
        final PromptParts parts;
        private final byte[] raw;

        Prompt(boolean collectText, byte[] raw) {
            this.raw = raw;
            text = collectText ? new StringBuilder() : null;
            parts = collectText ? null : new PromptParts();
        }

        /**
         * One more part, joined as upstream joins contents: separated by one space once anything was added.
         *
         * @param part the part's text when read (collecting text, and structured content), else null
         * @param quote else the opening quote in the body of the string that is the part
         */
        void add(String part, int quote) {
            add(part, quote, part != null ? part.length() : JsonStringLength.of(raw, quote));
        }

        /** As {@link #add(String, int)}, with the part's length in chars already counted. */
        void add(String part, int quote, int partLength) {
            if (length > 0) {
                length++;
                if (text != null) {
                    text.append(' ');
                }
            }
            length += partLength;
            if (text != null) {
                text.append(part);
            } else if (part != null) {
                parts.addText(part);
            } else {
                parts.addQuote(quote);
            }
        }
    }

    RequestBodyScan(byte[] raw, boolean chat, boolean collectText) {
        this.raw = raw;
        this.chat = chat;
        this.collectText = collectText;
    }

    /**
     * Adds the current string token to the prompt: read as text when collecting it, else noted where it lies in the
     * body (its length counted there by {@link JsonStringLength}).
     */
    private void addString(Prompt prompt, JsonParser p) throws IOException {
        if (collectText) {
            prompt.add(p.getText(), -1);
        } else {
            prompt.add(null, quote(p));
        }
    }

    /** The current string token's opening quote in the body. */
    private static int quote(JsonParser p) {
        return (int) p.currentTokenLocation().getByteOffset();
    }

    /** Scans the body; throws the refusal of JSON that is invalid or not an object. */
    static RequestBodyScan scan(byte[] raw, boolean chat, boolean collectText) throws EngineProtocolException {
        RequestBodyScan scan = new RequestBodyScan(raw, chat, collectText);
        try (JsonParser p = JsonBodies.mapper().getFactory().createParser(raw)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                if (first != null) {
                    skip(p, first); // a syntax error in a non-object body is still the first thing wrong
                    requireEnd(p);
                }
                throw new EngineProtocolException("expected a JSON object");
            }
            TopLevelJson.Recorder recorder = new TopLevelJson.Recorder(raw, p);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                scan.member(p, name, recorder.member(p));
            }
            // The loop ended at the object's end (a syntax error throws): what the PD legs' edits start from.
            scan.members = recorder.end(p);
            requireEnd(p);
        } catch (TrailingContent e) {
            throw e.refusal;
        } catch (JsonProcessingException e) {
            throw JsonBodies.refusal(e);
        } catch (NumberFormatException e) {
            throw JsonBodies.invalidNumber();
        } catch (IOException e) {
            throw new EngineProtocolException("unreadable JSON");
        }
        return scan;
    }

    private void member(JsonParser p, String name, JsonToken value) throws IOException {
        if ("model".equals(name)) {
            modelPresent = true;
            model = value == JsonToken.VALUE_STRING ? p.getText() : null;
            skip(p, value);
        } else if ("stream".equals(name)) {
            streamToken = value;
            streamValue = value == JsonToken.VALUE_TRUE;
            skip(p, value);
        } else if (chat && "messages".equals(name)) {
            prompt = messages(p, value);
        } else if (!chat && "prompt".equals(name)) {
            prompt = completionPrompt(p, value);
        } else {
            kvLocation |= OpenAiRequestParser.KV_LOCATION_FIELDS.contains(name);
            skip(p, value);
        }
    }

    private Prompt messages(JsonParser p, JsonToken value) throws IOException {
        Prompt messages = new Prompt(collectText, raw);
        if (value != JsonToken.START_ARRAY) {
            skip(p, value);
            messages.invalid = "\"messages\" is required and must be a non-empty array";
            return messages;
        }
        int count = 0;
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY && element != null) {
            count++;
            if (element != JsonToken.START_OBJECT) {
                skip(p, element);
                messages.invalid = messages.invalid == null ? "each entry of \"messages\" must be an object"
                        : messages.invalid;
                continue;
            }
            // The last content wins, as in the tree: its text (when collected, or structured) or its string's quote.
            boolean hasContent = false;
            String content = null;
            int contentQuote = -1;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                boolean isContent = "content".equals(p.currentName());
                JsonToken field = p.nextToken();
                if (!isContent) {
                    skip(p, field);
                } else if (field == JsonToken.VALUE_NULL) {
                    hasContent = false;
                } else if (field == JsonToken.VALUE_STRING) {
                    hasContent = true;
                    content = collectText ? p.getText() : null;
                    contentQuote = quote(p);
                } else {
                    hasContent = true;
                    content = TREE.readTree(p).toString(); // structured content counts as its JSON text
                }
            }
            if (hasContent && messages.invalid == null) {
                messages.add(content, contentQuote);
            }
        }
        if (count == 0) {
            messages.invalid = "\"messages\" is required and must be a non-empty array";
        }
        return messages;
    }

    private Prompt completionPrompt(JsonParser p, JsonToken value) throws IOException {
        Prompt prompt = new Prompt(collectText, raw);
        if (value == JsonToken.VALUE_NULL) {
            prompt.invalid = "\"prompt\" is required";
        } else if (value == JsonToken.VALUE_STRING) {
            addString(prompt, p);
        } else if (value == JsonToken.START_ARRAY) {
            JsonToken part = p.nextToken();
            if (part != null && part.isNumeric()) {
                prompt.tokenIds = valuesUntilEnd(p, part); // token ids: only their count matters
                return prompt;
            }
            if (part == JsonToken.START_ARRAY) {
                return tokenIdBatch(p, part, prompt);
            }
            for (; part != JsonToken.END_ARRAY && part != null; part = p.nextToken()) {
                if (part != JsonToken.VALUE_STRING) {
                    prompt.invalid = PROMPT_SHAPES;
                    skip(p, part);
                } else if (prompt.invalid == null) {
                    addString(prompt, p);
                }
            }
        } else {
            skip(p, value);
            prompt.invalid = PROMPT_SHAPES;
        }
        return prompt;
    }

    /**
     * A batch of token-id prompts ({@code [[1,2],[3]]}, as vLLM's completions API takes them): the count of all their
     * ids, which is what the engine computes; an entry that is not a list is refused.
     */
    private static Prompt tokenIdBatch(JsonParser p, JsonToken first, Prompt prompt) throws IOException {
        prompt.tokenIds = 0;
        for (JsonToken part = first; part != JsonToken.END_ARRAY && part != null; part = p.nextToken()) {
            if (part != JsonToken.START_ARRAY) {
                prompt.invalid = PROMPT_SHAPES;
                skip(p, part);
                continue;
            }
            prompt.tokenIds += valuesUntilEnd(p, p.nextToken());
        }
        return prompt;
    }

    /** Reads past the rest of an array whose next value starts with {@code first}; returns how many values it had. */
    private static int valuesUntilEnd(JsonParser p, JsonToken first) throws IOException {
        int values = 0;
        for (JsonToken value = first; value != JsonToken.END_ARRAY && value != null; value = p.nextToken()) {
            values++;
            skip(p, value);
        }
        return values;
    }

    /**
     * Reads past the value that starts with {@code token}, checking every token inside it as the tree parser would:
     * numbers are read as the tree reads them (floats as exact decimals), strings are validated but never built.
     */
    static void skip(JsonParser p, JsonToken token) throws IOException {
        int depth = 0;
        JsonToken t = token;
        while (true) {
            if (t == null) {
                return; // not reached: inside a value the parser reports a premature end itself
            }
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                depth++;
            } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                depth--;
            } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                p.getDecimalValue();
            } else if (t == JsonToken.VALUE_NUMBER_INT) {
                p.getNumberType();
            }
            if (depth == 0) {
                return;
            }
            t = p.nextToken();
        }
    }

    /** Carries a refusal out of the parser's IOException-only code. */
    private static final class TrailingContent extends IOException {
        private final transient EngineProtocolException refusal;

        TrailingContent(EngineProtocolException refusal) {
            super(refusal.getMessage(), null);
            this.refusal = refusal;
        }
    }

    /** Nothing may follow the object: the tree parser's FAIL_ON_TRAILING_TOKENS, with its refusal's words. */
    private static void requireEnd(JsonParser p) throws IOException {
        if (p.nextToken() != null) {
            throw new TrailingContent(JsonBodies.trailingContent(p.currentTokenLocation()));
        }
    }
}
