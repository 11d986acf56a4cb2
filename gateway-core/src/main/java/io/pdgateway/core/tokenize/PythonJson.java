package io.pdgateway.core.tokenize;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code tojson} filter transformers gives chat templates: Python's {@code json.dumps} with
 * {@code ensure_ascii=False}, keys in their order, {@code ", "} and {@code ": "} between items (a newline and the
 * indent instead with {@code indent}). Jinjava's own filter writes compact JSON, so every tool definition and tool
 * call a template dumps (Llama 3.1's, Qwen 2.5's) came out unlike the engine's text. Options as keywords or in order:
 * {@code ensure_ascii}, {@code indent}, {@code separators}, {@code sort_keys}.
 */
final class PythonJson implements Filter {
    private record Options(boolean ensureAscii, int indent, String itemSeparator, String keySeparator, boolean sort) {}

    @Override
    public String getName() {
        return "tojson";
    }

    @Override
    public Object filter(Object value, JinjavaInterpreter interpreter, String... args) {
        return filter(value, interpreter, args, Map.of());
    }

    @Override
    public Object filter(Object value, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
        Object ascii = option(args, kwargs, 0, "ensure_ascii");
        Object indent = option(args, kwargs, 1, "indent");
        Object separators = option(args, kwargs, 2, "separators");
        Object sort = option(args, kwargs, 3, "sort_keys");
        int spaces = indent instanceof Number n ? n.intValue() : -1;
        String item = spaces >= 0 ? "," : ", ";
        String key = ": ";
        if (separators instanceof List<?> pair && pair.size() == 2) {
            item = String.valueOf(pair.get(0));
            key = String.valueOf(pair.get(1));
        }
        StringBuilder out = new StringBuilder();
        write(out, value, new Options(Boolean.TRUE.equals(ascii), spaces, item, key, Boolean.TRUE.equals(sort)), 0);
        return out.toString();
    }

    private static Object option(Object[] args, Map<String, Object> kwargs, int position, String name) {
        if (kwargs != null && kwargs.containsKey(name)) {
            return kwargs.get(name);
        }
        return args != null && args.length > position ? args[position] : null;
    }

    private static void write(StringBuilder out, Object value, Options o, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
            out.append(pythonFloat(((Number) value).doubleValue()));
        } else if (value instanceof Number n) {
            out.append(n);
        } else if (value instanceof Map<?, ?> map) {
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            if (o.sort()) {
                entries.sort((a, b) -> String.valueOf(a.getKey()).compareTo(String.valueOf(b.getKey())));
            }
            writeAll(out, '{', '}', entries, o, depth, (entry, d) -> {
                string(out, String.valueOf(entry.getKey()), o.ensureAscii());
                out.append(o.keySeparator());
                write(out, entry.getValue(), o, d);
            });
        } else if (value instanceof Iterable<?> items) {
            List<Object> list = new ArrayList<>();
            items.forEach(list::add);
            writeAll(out, '[', ']', list, o, depth, (item, d) -> write(out, item, o, d));
        } else if (value instanceof Object[] array) {
            writeAll(out, '[', ']', List.of(array), o, depth, (item, d) -> write(out, item, o, d));
        } else {
            string(out, String.valueOf(value), o.ensureAscii());
        }
    }

    private interface ItemWriter<T> {
        void write(T item, int depth);
    }

    private static <T> void writeAll(StringBuilder out, char open, char close, List<T> items, Options o, int depth,
            ItemWriter<T> writer) {
        out.append(open);
        if (items.isEmpty()) {
            out.append(close);
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.append(o.itemSeparator());
            }
            newline(out, o, depth + 1);
            writer.write(items.get(i), depth + 1);
        }
        newline(out, o, depth);
        out.append(close);
    }

    private static void newline(StringBuilder out, Options o, int depth) {
        if (o.indent() >= 0) {
            out.append('\n').append(" ".repeat(o.indent() * depth));
        }
    }

    private static void string(StringBuilder out, String s, boolean ensureAscii) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || (ensureAscii && c > 0x7e)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Python's repr of a float: the shortest digits, fixed between 1e-4 and 1e16, else d.ddde+XX. */
    static String pythonFloat(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        BigDecimal shortest = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        double magnitude = Math.abs(d);
        if (magnitude >= 1e-4 && magnitude < 1e16) {
            String plain = shortest.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String digits = shortest.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - shortest.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (d < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                + String.format("%02d", Math.abs(exponent));
    }
}
