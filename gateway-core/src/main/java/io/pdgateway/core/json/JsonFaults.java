package io.pdgateway.core.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * What a person is told about JSON the parser refused: what is wrong and where, in the text's own terms. The parser's
 * own texts name its classes, features and token types ({@code StreamReadFeature...}, START_OBJECT, "bound as
 * com.fasterxml..."), which mean nothing to a client reading an error or an operator reading why a pod annotation was
 * ignored, and say which library parses the text.
 */
public final class JsonFaults {
    private JsonFaults() {}

    /** {@code invalid JSON: <what is wrong> at line L, column C}. */
    public static String describe(JsonProcessingException e) {
        return "invalid JSON: " + plain(e.getOriginalMessage()) + where(e.getLocation());
    }

    /** The parser's description cut before its source excerpt and internal names; a generic text if none is left. */
    public static String plain(String original) {
        String text = original == null ? "" : original;
        for (String cut : new String[] {"\n", " (for ", " (start marker", " at [Source", "[Source", " (bound as"}) {
            int at = text.indexOf(cut);
            if (at >= 0) {
                text = text.substring(0, at);
            }
        }
        text = text.replaceAll(" ?\\(of type [A-Z_]+\\)", "").strip();
        return text.isEmpty() || text.contains("`") || text.contains("jackson") ? "malformed JSON" : text;
    }

    /** {@code " at line L, column C"}, or nothing where the parser knows no place. */
    public static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
