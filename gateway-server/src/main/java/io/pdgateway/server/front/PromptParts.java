package io.pdgateway.server.front;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a prompt's parts lie in the body, as the validating scan found them: each message content (or prompt string)
 * by its opening quote, a structured content by its JSON text. Enough to read the prompt's bytes later without
 * parsing the body again ({@link #utf8}); a few ints a request, one per part.
 */
final class PromptParts {
    private int[] parts = new int[4];
    private int count;
    /** Structured contents' JSON texts, the parts that are {@code -1 - index} into this list. */
    private List<String> texts;

    void addQuote(int quote) {
        add(quote);
    }

    void addText(String text) {
        if (texts == null) {
            texts = new ArrayList<>(2);
        }
        texts.add(text);
        add(-texts.size());
    }

    private void add(int part) {
        if (count == parts.length) {
            parts = Arrays.copyOf(parts, count * 2);
        }
        parts[count++] = part;
    }

    /**
     * The prompt text's UTF-8 bytes, the parts joined as upstream joins contents (one space between them once anything
     * was added), read from {@code raw}, the body these parts were found in.
     */
    PromptUtf8 utf8(byte[] raw) {
        // Never more than the body: an escape is longer than what it stands for, and the quotes around each string
        // leave room for the space after it (a structured content may be longer: the buffer grows).
        PromptUtf8 out = new PromptUtf8(raw.length);
        for (int i = 0; i < count; i++) {
            if (out.length() > 0) {
                out.append((byte) ' ');
            }
            if (parts[i] >= 0) {
                JsonStringBytes.append(raw, parts[i], out);
            } else {
                out.append(texts.get(-1 - parts[i]));
            }
        }
        return out;
    }
}
