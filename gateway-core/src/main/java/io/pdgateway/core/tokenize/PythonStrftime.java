package io.pdgateway.core.tokenize;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Python's {@code strftime} in the C locale, for the directives chat templates use: Llama 3.2 and later write
 * {@code strftime_now("%d %b %Y")} into every system header, so a date rendered differently from the engine's moves
 * every chat prompt's tokens from its first block on. An unknown directive is written as it stands, as glibc does.
 */
final class PythonStrftime {
    private PythonStrftime() {}

    static String format(String pattern, ZonedDateTime time) {
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 == pattern.length()) {
                out.append(c);
                continue;
            }
            char d = pattern.charAt(++i);
            String java = switch (d) {
                case 'd' -> "dd";
                case 'm' -> "MM";
                case 'y' -> "yy";
                case 'Y' -> "yyyy";
                case 'H' -> "HH";
                case 'I' -> "hh";
                case 'M' -> "mm";
                case 'S' -> "ss";
                case 'p' -> "a";
                case 'b', 'h' -> "MMM";
                case 'B' -> "MMMM";
                case 'a' -> "EEE";
                case 'A' -> "EEEE";
                case 'j' -> "DDD";
                default -> null;
            };
            if (java != null) {
                out.append(DateTimeFormatter.ofPattern(java, Locale.US).format(time));
            } else if (d == 'e') {
                out.append(String.format(Locale.ROOT, "%2d", time.getDayOfMonth())); // day, space-padded
            } else if (d == '%') {
                out.append('%');
            } else {
                out.append('%').append(d);
            }
        }
        return out.toString();
    }
}
