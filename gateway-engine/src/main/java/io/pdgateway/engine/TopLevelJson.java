package io.pdgateway.engine;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Edits the top-level members of a JSON object byte by byte: every member it does not touch, and the whitespace
 * between members, stays exactly as the client sent it. Engines that tokenize the prompt themselves (SGLang,
 * TensorRT-LLM) then see the same messages, tools and numbers on both legs, so both compute the same prompt tokens,
 * and a 64-bit integer or a decimal like 0.70 never passes through a double (reference §1.3: upstream edits with
 * gjson/sjson for the same reason).
 *
 * <p>Edits accumulate and apply in {@link #toBytes()}: a set replaces the value of an existing member in place or
 * appends a new member at the end; a remove drops every member of that name. Not thread-safe; one per body.
 */
public final class TopLevelJson {
    /** One top-level member: where its key starts and where its value starts and ends, as byte offsets. */
    private record Member(String name, int keyStart, int valueStart, int valueEnd) {}

    private final byte[] source;
    /** Where the object's bytes start and end in {@code source}: the whole array for a body, the value for a member. */
    private final int start;
    private final int end;
    private final int openBrace;
    private final List<Member> members;
    /** Members whose object values were read in the same pass ({@link #parse(byte[], Set)}), by name. */
    private final Map<String, TopLevelJson> objects;
    private final Map<String, byte[]> sets = new LinkedHashMap<>();
    private final Set<String> removals = new HashSet<>();

    private TopLevelJson(byte[] source, int start, int end, int openBrace, List<Member> members,
            Map<String, TopLevelJson> objects) {
        this.source = source;
        this.start = start;
        this.end = end;
        this.openBrace = openBrace;
        this.members = members;
        this.objects = objects;
    }

    /** Reads the members of a JSON object; fails on invalid JSON, a non-object, or anything after the object. */
    public static TopLevelJson parse(byte[] body) throws EngineProtocolException {
        return parse(body, Set.of());
    }

    /**
     * As {@link #parse(byte[])}, and the members of the named members' object values too, in the same pass
     * ({@link #object}): an engine's answer whose one object the gateway edits is read once, however large it is.
     */
    public static TopLevelJson parse(byte[] body, Set<String> objectMembers) throws EngineProtocolException {
        try (JsonParser parser = JsonBodies.mapper().getFactory().createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new EngineProtocolException("expected a JSON object");
            }
            Recorder recorder = new Recorder(body, parser);
            Map<String, TopLevelJson> objects = new HashMap<>();
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                if (recorder.member(parser) == JsonToken.START_OBJECT && objectMembers.contains(name)) {
                    objects.put(name, nested(body, parser));
                } else {
                    objects.remove(name); // a repeated member counts with its last value
                    parser.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw new EngineProtocolException("invalid JSON object");
            }
            TopLevelJson json = recorder.end(parser, objects);
            if (parser.nextToken() != null) {
                throw new EngineProtocolException("invalid JSON: content after the object");
            }
            return json;
        } catch (JsonProcessingException e) {
            throw JsonBodies.refusal(e);
        } catch (IOException e) {
            throw new EngineProtocolException("unreadable JSON");
        }
    }

    /** The object value the parser is at the start of, read member by member; the parser ends at its END_OBJECT. */
    private static TopLevelJson nested(byte[] body, JsonParser parser) throws IOException {
        Recorder recorder = new Recorder(body, parser);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            recorder.member(parser);
            parser.skipChildren();
        }
        return recorder.value(parser);
    }

    /**
     * Notes where the members of an object are while another reader walks it with its own parser, so the walk that
     * validates a body also yields its {@code TopLevelJson}, without a second pass over the bytes.
     */
    public static final class Recorder {
        private final byte[] body;
        private final int openBrace;
        private final List<String> names = new ArrayList<>();
        private final List<int[]> starts = new ArrayList<>();

        /** @param parser created over {@code body}, at the object's START_OBJECT */
        public Recorder(byte[] body, JsonParser parser) {
            this(body, offset(parser));
        }

        /** For a reader that walks the bytes itself: {@code openBrace} is where the object starts in {@code body}. */
        public Recorder(byte[] body, int openBrace) {
            this.body = body;
            this.openBrace = openBrace;
        }

        /** At a top-level FIELD_NAME: reads the name and moves the parser to the member's value's first token. */
        public JsonToken member(JsonParser parser) throws IOException {
            String name = parser.currentName();
            int keyStart = offset(parser);
            JsonToken value = parser.nextToken();
            member(name, keyStart, offset(parser));
            return value;
        }

        /** One member, by the offsets of its key's opening quote and of its value's first byte. */
        public void member(String name, int keyStart, int valueStart) {
            names.add(name);
            starts.add(new int[] {keyStart, valueStart});
        }

        /** At the body's END_OBJECT: the members seen. */
        public TopLevelJson end(JsonParser parser) {
            return end(offset(parser));
        }

        /** The members seen, the object's closing brace being at {@code closeBrace}. */
        public TopLevelJson end(int closeBrace) {
            return new TopLevelJson(body, 0, body.length, openBrace, members(closeBrace), Map.of());
        }

        private TopLevelJson end(JsonParser parser, Map<String, TopLevelJson> objects) {
            return new TopLevelJson(body, 0, body.length, openBrace, members(offset(parser)), Map.copyOf(objects));
        }

        /** At a member's object value's END_OBJECT: that value, from its brace to its brace. */
        private TopLevelJson value(JsonParser parser) {
            int close = offset(parser);
            return new TopLevelJson(body, openBrace, close + 1, openBrace, members(close), Map.of());
        }

        private List<Member> members(int close) {
            List<Member> members = new ArrayList<>(names.size());
            for (int i = 0; i < names.size(); i++) {
                int next = i + 1 < names.size() ? starts.get(i + 1)[0] : close;
                members.add(new Member(names.get(i), starts.get(i)[0], starts.get(i)[1], valueEnd(body, next)));
            }
            return List.copyOf(members);
        }
    }

    private static int offset(JsonParser parser) {
        return (int) parser.currentTokenLocation().getByteOffset();
    }

    /** A value ends at the last non-blank byte before the next member's separating comma, or before the brace. */
    private static int valueEnd(byte[] body, int nextStart) {
        int i = nextStart - 1;
        while (isBlank(body[i])) {
            i--;
        }
        if (body[i] == ',') {
            i--;
            while (isBlank(body[i])) {
                i--;
            }
        }
        return i + 1;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /** The same body with no edits yet: another leg's edits over one parse. */
    public TopLevelJson copy() {
        return new TopLevelJson(source, start, end, openBrace, members, objects);
    }

    /** Fails naming the first of {@code keys} that appears more than once: which of two values counts is ambiguous. */
    public TopLevelJson requireUnique(Collection<String> keys) throws EngineProtocolException {
        Set<String> seen = new HashSet<>();
        for (Member member : members) {
            if (keys.contains(member.name()) && !seen.add(member.name())) {
                throw new EngineProtocolException("duplicate top-level key \"" + member.name() + "\"");
            }
        }
        return this;
    }

    public boolean has(String name) {
        return last(name) != null;
    }

    /** Whether the member's value as sent (the last one when repeated) is a JSON array; reads one byte. */
    public boolean isArray(String name) {
        Member member = last(name);
        return member != null && source[member.valueStart()] == '[';
    }

    /** The raw bytes of the member's value as sent (the last one when repeated), or null when absent. */
    public byte[] rawValue(String name) {
        Member member = last(name);
        return member == null ? null : java.util.Arrays.copyOfRange(source, member.valueStart(), member.valueEnd());
    }

    /**
     * The member's object value with no edits yet, when {@link #parse(byte[], Set)} was asked for it and its (last)
     * value is an object; else null.
     */
    public TopLevelJson object(String name) {
        TopLevelJson value = objects.get(name);
        return value == null ? null : value.copy();
    }

    private Member last(String name) {
        Member found = null;
        for (Member member : members) {
            if (member.name().equals(name)) {
                found = member;
            }
        }
        return found;
    }

    /** Sets the member to an already serialized JSON value. */
    public TopLevelJson setRaw(String name, byte[] rawJson) {
        removals.remove(name);
        sets.put(name, rawJson);
        return this;
    }

    public TopLevelJson set(String name, long value) {
        return setRaw(name, Long.toString(value).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    public TopLevelJson set(String name, boolean value) {
        return setRaw(name, Boolean.toString(value).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    public TopLevelJson set(String name, String value) {
        return setRaw(name, quoted(value));
    }

    public TopLevelJson remove(String name) {
        sets.remove(name);
        removals.add(name);
        return this;
    }

    /** The edited object: untouched members keep their bytes, replaced ones their key, new ones go last. */
    public byte[] toBytes() {
        // Counted first, then written into an array of that size: a 200 KB body is copied once, not grown and trimmed.
        byte[] out = new byte[write(new Sink(null))];
        write(new Sink(out));
        return out;
    }

    /** Writes the edited object to {@code out} (or only counts its bytes); returns how many. */
    private int write(Sink out) {
        out.copy(source, start, openBrace + 1 - start);
        Set<String> written = new HashSet<>();
        boolean first = true;
        for (int i = 0; i < members.size(); i++) {
            Member member = members.get(i);
            if (removals.contains(member.name()) || sets.containsKey(member.name()) && written.contains(member.name())) {
                continue;
            }
            writeSeparator(out, i == 0 ? openBrace + 1 : members.get(i - 1).valueEnd(), member.keyStart(), first);
            first = false;
            byte[] replacement = sets.get(member.name());
            if (replacement == null) {
                out.copy(source, member.keyStart(), member.valueEnd() - member.keyStart());
            } else {
                out.copy(source, member.keyStart(), member.valueStart() - member.keyStart());
                out.copy(replacement);
                written.add(member.name());
            }
        }
        for (Map.Entry<String, byte[]> set : sets.entrySet()) {
            if (!written.contains(set.getKey())) {
                if (!first) {
                    out.put((byte) ',');
                }
                first = false;
                out.copy(quoted(set.getKey()));
                out.put((byte) ':');
                out.copy(set.getValue());
            }
        }
        // What follows the last member as sent: blanks, the closing brace, trailing blanks.
        int tail = members.isEmpty() ? openBrace + 1 : members.get(members.size() - 1).valueEnd();
        out.copy(source, tail, end - tail);
        return out.size;
    }

    /**
     * The bytes before a kept member as sent (blanks and the comma). When every member before it was dropped, its
     * comma goes.
     */
    private void writeSeparator(Sink out, int from, int to, boolean first) {
        for (int i = from; i < to; i++) {
            if (!(first && source[i] == ',')) {
                out.put(source[i]);
            }
        }
    }

    /** Where {@link #write} puts the bytes: an array of the right size, or nowhere when only counting. */
    private static final class Sink {
        private final byte[] out;
        private int size;

        Sink(byte[] out) {
            this.out = out;
        }

        void put(byte b) {
            if (out != null) {
                out[size] = b;
            }
            size++;
        }

        void copy(byte[] from) {
            copy(from, 0, from.length);
        }

        void copy(byte[] from, int offset, int length) {
            if (out != null) {
                System.arraycopy(from, offset, out, size, length);
            }
            size += length;
        }
    }

    /** The string as a JSON string; member names and the values the adapters set are plain ASCII, quoted directly. */
    private static byte[] quoted(String text) {
        byte[] plain = new byte[text.length() + 2];
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return escaped(text);
            }
            plain[i + 1] = (byte) c;
        }
        plain[0] = '"';
        plain[plain.length - 1] = '"';
        return plain;
    }

    private static byte[] escaped(String text) {
        try {
            return JsonBodies.mapper().writeValueAsBytes(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string always serialises", e);
        }
    }
}
