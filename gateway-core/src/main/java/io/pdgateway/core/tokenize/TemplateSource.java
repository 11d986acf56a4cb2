package io.pdgateway.core.tokenize;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chat template's source as jinjava must read it to mean what Python's Jinja does. Jinjava binds {@code not} tighter
 * than a test, so {@code not tools is defined} read as {@code (not tools) is defined}, always true: Llama 3.x's
 * {@code {%- if not tools is defined %}{%- set tools = none %}} dropped every request's tools. Python binds the test
 * first; the source is rewritten to say so, {@code not (tools is defined)}, inside tags only.
 */
final class TemplateSource {
    /** A tag or an expression, {@code {% ... %}} or {@code {{ ... }}}. */
    private static final Pattern TAG = Pattern.compile("\\{[{%].*?[%}]}", Pattern.DOTALL);
    /** {@code not} before a name (with attributes and subscripts) that a test follows, {@code is} or {@code is not}. */
    private static final Pattern NOT_TEST = Pattern.compile(
            "\\bnot\\s+([A-Za-z_]\\w*(?:\\.\\w+|\\[[^\\[\\]{}%]*])*)\\s+is\\s+(not\\s+)?([A-Za-z_]\\w*)\\b");

    private TemplateSource() {}

    static String withPythonPrecedence(String template) {
        Matcher tags = TAG.matcher(template);
        StringBuilder out = new StringBuilder(template.length() + 32);
        while (tags.find()) {
            String tag = NOT_TEST.matcher(tags.group()).replaceAll("not ($1 is $2$3)");
            tags.appendReplacement(out, Matcher.quoteReplacement(tag));
        }
        tags.appendTail(out);
        return out.toString();
    }
}
