package io.pdgateway.server.front;

import com.fasterxml.jackson.core.JsonToken;
import io.pdgateway.engine.TopLevelJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link RequestBodyScan}'s fast path: one pass over the bytes that checks UTF-8 and JSON and notes what routing reads,
 * for the bodies clients send. It decides no refusal: when a body strays from that shape, whether it is invalid or
 * only unusual (a name or model with escapes, an invalid prompt, deep nesting, long numbers), it
 * gives up and the caller runs {@link Utf8Check} and the parser's scan, which word every refusal. So it accepts only
 * what the parser accepts, and reads from it what the parser's scan reads.
 *
 * <p>Why: at 200 KB the parser's string skipping, the UTF-8 check and the length count were three passes over the
 * same bytes on the event loop (issue 16's profile); here a plain eight bytes of a string are checked, counted and
 * stepped over at once.
 */
final class FastBodyScan {
    private static final byte[] CONTENT = "content".getBytes(StandardCharsets.US_ASCII);
    private static final JsonCursor.GiveUp GIVE_UP = JsonCursor.GIVE_UP;

    private final byte[] b;
    private final JsonCursor c;
    private final RequestBodyScan scan;

    private FastBodyScan(byte[] raw, boolean chat) {
        this.b = raw;
        this.c = new JsonCursor(raw);
        this.scan = new RequestBodyScan(raw, chat, false);
    }

    /** The scan of a body of the usual shape, or null: then the caller scans it with the parser. */
    static RequestBodyScan scan(byte[] raw, boolean chat) {
        FastBodyScan walk = new FastBodyScan(raw, chat);
        try {
            walk.body();
            return walk.scan;
        } catch (JsonCursor.GiveUp | ArrayIndexOutOfBoundsException e) {
            return null; // the out-of-bounds read is a body cut short: the parser says so in its words
        }
    }

    private void body() {
        c.blanks();
        if (c.peek() != '{') {
            throw GIVE_UP;
        }
        TopLevelJson.Recorder members = new TopLevelJson.Recorder(b, c.position());
        c.expect('{');
        c.blanks();
        if (c.peek() == '}') {
            throw GIVE_UP; // no model: the parser's scan words the refusal
        }
        int close;
        do {
            int keyStart = c.position();
            String name = name();
            c.blanks();
            c.expect(':');
            c.blanks();
            members.member(name, keyStart, c.position());
            member(name);
            c.blanks();
            close = c.position();
        } while (c.more('}'));
        scan.members = members.end(close);
        c.blanks();
        if (!c.atEnd()) {
            throw GIVE_UP;
        }
    }

    private void member(String name) {
        if ("model".equals(name)) {
            scan.modelPresent = true;
            if (c.peek() == '"') {
                int start = c.position() + 1;
                c.string();
                if (c.escaped() || c.units() > JsonCursor.MAX_NAME_UNITS) {
                    throw GIVE_UP; // a model name is short: the parser's scan reads any other
                }
                scan.model = new String(b, start, c.position() - 1 - start, StandardCharsets.UTF_8);
            } else {
                scan.model = null;
                c.value(1);
            }
        } else if ("stream".equals(name)) {
            JsonToken token = c.value(1);
            scan.streamToken = token;
            scan.streamValue = token == JsonToken.VALUE_TRUE;
        } else if (scan.chat && "messages".equals(name)) {
            scan.prompt = messages();
        } else if (!scan.chat && "prompt".equals(name)) {
            scan.prompt = completionPrompt();
        } else {
            scan.kvLocation |= OpenAiRequestParser.KV_LOCATION_FIELDS.contains(name);
            c.value(1);
        }
    }

    /** A non-empty array of message objects, each content a string, null or absent; anything else gives up. */
    private RequestBodyScan.Prompt messages() {
        RequestBodyScan.Prompt prompt = new RequestBodyScan.Prompt(false, b);
        c.expect('[');
        c.blanks();
        if (c.peek() == ']') {
            throw GIVE_UP;
        }
        do {
            c.expect('{');
            c.blanks();
            // The last content counts: a string by its quote, or any other value by where it lies (read as its JSON
            // text, as the parser's scan reads it); null, none.
            int contentQuote = -1;
            int contentUnits = 0;
            int structuredStart = -1;
            int structuredEnd = 0;
            if (!c.closing('}')) {
                do {
                    boolean isContent = isContentName();
                    c.blanks();
                    c.expect(':');
                    c.blanks();
                    if (!isContent) {
                        c.value(3);
                    } else if (c.peek() == '"') {
                        contentQuote = c.position();
                        structuredStart = -1;
                        c.string();
                        contentUnits = c.units();
                    } else {
                        int start = c.position();
                        JsonToken kind = c.value(3);
                        contentQuote = -1;
                        structuredStart = kind == JsonToken.VALUE_NULL ? -1 : start;
                        structuredEnd = c.position();
                    }
                } while (c.more('}'));
            }
            if (contentQuote >= 0) {
                prompt.add(null, contentQuote, contentUnits);
            } else if (structuredStart >= 0) {
                prompt.add(structuredText(structuredStart, structuredEnd), -1);
            }
        } while (c.more(']'));
        return prompt;
    }

    /** A string, a list of strings, or a list whose first element is a number (token ids); else gives up. */
    private RequestBodyScan.Prompt completionPrompt() {
        RequestBodyScan.Prompt prompt = new RequestBodyScan.Prompt(false, b);
        if (c.peek() == '"') {
            int quote = c.position();
            c.string();
            prompt.add(null, quote, c.units());
            return prompt;
        }
        c.expect('[');
        c.blanks();
        if (c.closing(']')) {
            return prompt;
        }
        boolean tokenIds = c.peek() == '-' || (c.peek() >= '0' && c.peek() <= '9');
        if (tokenIds) {
            prompt.tokenIds = 0; // only their count matters, whatever follows the first
        }
        do {
            if (tokenIds) {
                prompt.tokenIds++;
                c.value(2);
            } else if (c.peek() == '"') {
                int quote = c.position();
                c.string();
                prompt.add(null, quote, c.units());
            } else {
                throw GIVE_UP;
            }
        } while (c.more(']'));
        return prompt;
    }

    /** A structured content's JSON text, written by the parser's tree as its scan writes it; gives up if it cannot. */
    private String structuredText(int start, int end) {
        try {
            return RequestBodyScan.TREE.readTree(b, start, end - start).toString();
        } catch (java.io.IOException | RuntimeException e) {
            throw GIVE_UP;
        }
    }

    /** A top-level member's name, without escapes (with one, the parser's scan reads it). */
    private String name() {
        int start = c.position() + 1;
        c.string();
        if (c.escaped() || c.units() > JsonCursor.MAX_NAME_UNITS) {
            throw GIVE_UP;
        }
        return new String(b, start, c.position() - 1 - start, StandardCharsets.UTF_8);
    }

    /** Whether the member name here is exactly "content" as sent; steps over it. */
    private boolean isContentName() {
        int start = c.position() + 1;
        c.string();
        if (c.escaped()) {
            throw GIVE_UP;
        }
        int end = c.position() - 1;
        return end - start == CONTENT.length && Arrays.equals(b, start, end, CONTENT, 0, CONTENT.length);
    }
}
