package io.pdgateway.server.front;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded generator of hostile request bodies for the fuzz test: well-formed JSON objects laid out with odd
 * whitespace, carrying the fields the gateway and the engine adapters read with values of every type (duplicates
 * included), and byte-level mutations of them (flips, cuts, splices, stray UTF-8 and JSON fragments). Deterministic
 * under its seed, so a failure names the case that reproduces it.
 */
final class JsonFuzzer {
    /** The keys the front and the adapters read or write; fuzzed values go here most often. */
    static final List<String> KNOWN_KEYS = List.of("model", "messages", "prompt", "stream", "stream_options",
            "max_tokens", "max_completion_tokens", "min_tokens", "rid", "bootstrap_host", "bootstrap_port",
            "bootstrap_room", "disaggregated_params", "prompt_token_ids", "kv_transfer_params", "temperature", "seed",
            "tools", "user");
    private static final List<String> FRAGMENTS = List.of("{", "}", "[", "]", ",", ":", "\"", "\\", "null", "true",
            "1e999", "-0", "0.70", "9007199254740993", "\"\\ud800\"", "\"\\u0000\"", "\"model\":", ",\"stream\":true",
            "/*", "NaN", "\ufeff", "\u4e16\u754c", "[[[[[[[[", "]]]]", "{\"a\":", " \n\t\r ");
    private static final String[] STRING_ATOMS = {"my-model", "hi", "caf\u00e9", "\\\"quoted\\\"", "\\n", "\\u00e9",
            "\\ud83d\\ude00", "\u4e16\u754c", "", " ", "x".repeat(40), "\\\\", "\\/"};

    private final SplittableRandom random;

    JsonFuzzer(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A body for one case: half well-formed objects, half byte-level mutations of one. */
    byte[] next() {
        byte[] body = object().getBytes(StandardCharsets.UTF_8);
        return random.nextBoolean() ? body : mutate(body);
    }

    /** A pod's answer to a prefill: well-formed most of the time, sometimes mangled. */
    byte[] prefillResponse(byte[] wellFormed) {
        return random.nextInt(5) == 0 ? mutate(wellFormed) : wellFormed;
    }

    /** A top-level object: model and messages or prompt most of the time, known keys with random values, repeats. */
    String object() {
        StringBuilder out = new StringBuilder();
        space(out);
        out.append('{');
        int members = 0;
        if (random.nextInt(10) > 0) {
            member(out, members++ > 0, "model", random.nextInt(8) > 0 ? "\"my-model\"" : value(2));
        }
        if (random.nextInt(10) > 0) {
            boolean chat = random.nextBoolean();
            member(out, members++ > 0, chat ? "messages" : "prompt", random.nextInt(6) > 0
                    ? (chat ? "[{\"role\":\"user\",\"content\":" + string() + "}]" : string()) : value(3));
        }
        int extra = random.nextInt(8);
        for (int i = 0; i < extra; i++) {
            String key = random.nextInt(4) > 0 ? KNOWN_KEYS.get(random.nextInt(KNOWN_KEYS.size())) : "k" + i;
            member(out, members++ > 0, key, value(3));
        }
        space(out);
        out.append('}');
        space(out);
        return out.toString();
    }

    private void member(StringBuilder out, boolean comma, String key, String value) {
        space(out);
        if (comma) {
            out.append(',');
            space(out);
        }
        out.append('"').append(key).append('"');
        space(out);
        out.append(':');
        space(out);
        out.append(value);
    }

    /** A JSON value of any type, nesting at most {@code depth} more levels. */
    private String value(int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 7);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> Long.toString(random.nextLong());
            case 3 -> List.of("0.70", "1e3", "-0", "1.5E-7", "123456789012345678901234567890", "0")
                    .get(random.nextInt(6));
            case 4, 5 -> string();
            case 6 -> Integer.toString(random.nextInt(-2, 5000));
            case 7 -> {
                StringBuilder array = new StringBuilder("[");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    array.append(i > 0 ? "," : "").append(value(depth - 1));
                }
                yield array.append(']').toString();
            }
            default -> {
                StringBuilder object = new StringBuilder("{");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    object.append(i > 0 ? "," : "").append('"').append(KNOWN_KEYS.get(random.nextInt(KNOWN_KEYS.size())))
                            .append("\":").append(value(depth - 1));
                }
                yield object.append('}').toString();
            }
        };
    }

    private String string() {
        StringBuilder out = new StringBuilder("\"");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            out.append(STRING_ATOMS[random.nextInt(STRING_ATOMS.length)]);
        }
        return out.append('"').toString();
    }

    private void space(StringBuilder out) {
        if (random.nextInt(3) == 0) {
            out.append(List.of(" ", "  ", "\n", "\t", "\r\n", " \n  ").get(random.nextInt(6)));
        }
    }

    /** One to three byte-level edits: flips, cuts, duplicated slices, stray fragments and invalid UTF-8. */
    byte[] mutate(byte[] body) {
        byte[] out = body;
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = out.length == 0 ? 0 : random.nextInt(out.length + 1);
            out = switch (random.nextInt(6)) {
                case 0 -> flip(out, at);
                case 1 -> splice(out, at, Math.min(out.length, at + random.nextInt(1, 16)), new byte[0]);
                case 2 -> splice(out, at, at, FRAGMENTS.get(random.nextInt(FRAGMENTS.size()))
                        .getBytes(StandardCharsets.UTF_8));
                case 3 -> splice(out, at, at, new byte[] {(byte) List.of(0xFF, 0xC3, 0xED, 0x80, 0xF4, 0x00)
                        .get(random.nextInt(6)).intValue()});
                case 4 -> java.util.Arrays.copyOf(out, at);
                default -> {
                    int from = out.length == 0 ? 0 : random.nextInt(out.length);
                    int to = Math.min(out.length, from + random.nextInt(1, 24));
                    yield splice(out, at, at, java.util.Arrays.copyOfRange(out, from, to));
                }
            };
        }
        return out;
    }

    private byte[] flip(byte[] body, int at) {
        if (body.length == 0) {
            return body;
        }
        byte[] out = body.clone();
        out[Math.min(at, out.length - 1)] = (byte) random.nextInt(256);
        return out;
    }

    private static byte[] splice(byte[] body, int from, int to, byte[] insert) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + insert.length);
        out.write(body, 0, from);
        out.writeBytes(insert);
        out.write(body, to, body.length - to);
        return out.toByteArray();
    }
}
