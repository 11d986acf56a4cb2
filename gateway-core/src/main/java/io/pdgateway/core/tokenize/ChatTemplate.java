package io.pdgateway.core.tokenize;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import com.hubspot.jinjava.loader.ResourceLocator;
import com.hubspot.jinjava.tree.Node;
import java.io.IOException;
import java.nio.charset.Charset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's chat template (the Jinja {@code chat_template} of its {@code tokenizer_config.json}), rendered as the
 * engines render it through transformers: Jinja with trim_blocks and lstrip_blocks, the variables {@code messages},
 * {@code add_generation_prompt}, {@code bos_token}, {@code eos_token} (and any extra ones, e.g. {@code tools}),
 * {@code raise_exception}, {@code strftime_now} and transformers' {@code tojson}. The engine then tokenizes the
 * rendered text without adding special tokens, so {@code tokenizer.encode(template.render(...))} gives the engine's
 * prompt tokens. HubSpot's jinjava interprets the template ({@link TemplateSource} mends where it reads Jinja unlike
 * Python); templates cannot include or import anything (no resource locator). Thread-safe.
 */
public final class ChatTemplate {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceLocator NOTHING = new ResourceLocator() {
        @Override
        public String getString(String fullName, Charset encoding,
                com.hubspot.jinjava.interpret.JinjavaInterpreter interpreter) throws IOException {
            throw new IOException("chat templates cannot load " + fullName);
        }
    };

    /**
     * jinjava's opt-ins to Python Jinja's behaviour, which the templates are written for: whitespace control on
     * expressions ({@code {{- x }}}, everywhere in Llama 3.1's and Qwen's templates), Jinja's operator precedence,
     * Python's rendering of values, iteration over a dict's keys, backslashes as in Python strings.
     */
    private static final LegacyOverrides PYTHON_JINJA = LegacyOverrides.newBuilder()
            .withUseTrimmingForNotesAndExpressions(true).withParseWhitespaceControlStrictly(true)
            .withUseNaturalOperatorPrecedence(true).withUsePyishObjectMapper(true).withIterateOverMapKeys(true)
            .withKeepNullableLoopValues(true).withHandleBackslashInQuotesOnly(true).withEvaluateMapKeys(true)
            .build();

    private final String bosToken;
    private final String eosToken;
    private final Jinjava jinjava;
    /** Parsed once (jinjava renders a parsed tree again and again). */
    private final Node tree;
    /** What parsing found wrong (a syntax error is fatal at every render, as it was when each render parsed). */
    private final List<TemplateError> parseErrors;
    /**
     * An interpreter per thread, kept between clean renders: building one (a copy of the global context, its
     * expression machinery) took several times the render itself (ChatTemplateBenchmark). Bounded by the threads.
     */
    private final ThreadLocal<JinjavaInterpreter> interpreters = new ThreadLocal<>();

    public ChatTemplate(String template, String bosToken, String eosToken) {
        this.bosToken = bosToken == null ? "" : bosToken;
        this.eosToken = eosToken == null ? "" : eosToken;
        this.jinjava = new Jinjava(JinjavaConfig.newBuilder().withTrimBlocks(true).withLstripBlocks(true)
                .withFailOnUnknownTokens(false).withLegacyOverrides(PYTHON_JINJA).build());
        this.jinjava.setResourceLocator(NOTHING);
        this.jinjava.getGlobalContext().registerFunction(new ELFunctionDefinition("", "raise_exception",
                ChatTemplate.class, "raiseException", String.class));
        this.jinjava.getGlobalContext().registerFilter(new PythonJson());
        this.jinjava.getGlobalContext().registerFunction(new ELFunctionDefinition("", "strftime_now",
                ChatTemplate.class, "strftimeNow", String.class));
        // Templates ask "strftime_now is defined" before calling it, as transformers defines it as a global; a
        // jinjava function is not a variable, so a marker of the same name answers that test (calls still resolve
        // to the function).
        this.jinjava.getGlobalContext().put("strftime_now", Boolean.TRUE);
        JinjavaInterpreter parser = jinjava.newInterpreter();
        JinjavaInterpreter.pushCurrent(parser);
        Node parsed = null;
        List<TemplateError> errors;
        try {
            parsed = parser.parse(TemplateSource.withPythonPrecedence(template));
            errors = parser.getErrorsCopy();
        } catch (RuntimeException e) {
            errors = List.of(TemplateError.fromException(e));
        } finally {
            JinjavaInterpreter.popCurrent();
        }
        this.tree = parsed;
        this.parseErrors = List.copyOf(errors);
    }

    /**
     * The template of a {@code tokenizer_config.json}: {@code chat_template} as a string, or the entry named "default"
     * (else the first) of a list of {name, template}; {@code bos_token}/{@code eos_token} as strings or {content}.
     */
    public static ChatTemplate fromTokenizerConfig(String json) throws TokenizerFormatException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new TokenizerFormatException("tokenizer_config is not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode t = root == null ? null : root.get("chat_template");
        String text = null;
        if (t != null && t.isTextual()) {
            text = t.asText();
        } else if (t != null && t.isArray()) {
            for (JsonNode named : t) {
                if (text == null || "default".equals(named.path("name").asText())) {
                    text = named.path("template").asText(null);
                }
            }
        }
        if (text == null) {
            throw new TokenizerFormatException("tokenizer_config has no chat_template");
        }
        return new ChatTemplate(text, token(root.get("bos_token")), token(root.get("eos_token")));
    }

    private static String token(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        return n.isTextual() ? n.asText() : n.path("content").asText(null);
    }

    /**
     * The prompt text of a chat request's body as vLLM renders it ({@link ChatConversation}): its messages, tools,
     * documents and {@code chat_template_kwargs}, with the generation prompt unless the request says
     * {@code add_generation_prompt: false}. With {@code continue_final_message} the text ends where the last message's
     * content does, so the model continues that message (transformers cuts the rendered text there).
     *
     * @throws TokenizerFormatException when the request is not one a chat template can render, or the template fails
     */
    public String renderRequest(JsonNode request) throws TokenizerFormatException {
        List<Map<String, Object>> messages = ChatConversation.messages(request.get("messages"));
        Map<String, Object> variables = ChatConversation.variables(request);
        boolean continueFinal = Boolean.TRUE.equals(variables.get("continue_final_message"));
        boolean addGenerationPrompt = Boolean.TRUE.equals(variables.get("add_generation_prompt"));
        if (continueFinal && addGenerationPrompt) {
            throw new TokenizerFormatException("continue_final_message and add_generation_prompt cannot both be true");
        }
        String rendered = render(messages, addGenerationPrompt, variables);
        if (!continueFinal || messages.isEmpty()) {
            return rendered;
        }
        String last = String.valueOf(messages.get(messages.size() - 1).get("content"));
        for (String end : List.of(last, last.strip())) {
            int at = rendered.lastIndexOf(end);
            if (at >= 0) {
                return rendered.substring(0, at + end.length());
            }
        }
        throw new TokenizerFormatException("continue_final_message: the template does not render the last message");
    }

    /**
     * The prompt text for these messages (each a map with at least "role" and "content").
     *
     * @throws TokenizerFormatException when the template fails (a syntax error, or its own raise_exception)
     */
    public String render(List<? extends Map<String, ?>> messages, boolean addGenerationPrompt,
            Map<String, ?> extra) throws TokenizerFormatException {
        Map<String, Object> variables = new HashMap<>(extra);
        variables.put("messages", messages);
        variables.put("add_generation_prompt", addGenerationPrompt);
        variables.put("bos_token", bosToken);
        variables.put("eos_token", eosToken);
        failOnFatal(parseErrors);
        JinjavaConfig config = jinjava.getGlobalConfig();
        JinjavaInterpreter interpreter = interpreters.get();
        interpreters.remove(); // back only after a clean render: one that failed may have left state behind
        if (interpreter == null) {
            // a copy of the global context: a render records what it resolved in its context's parents
            interpreter = new JinjavaInterpreter(jinjava, jinjava.getGlobalContextCopy(), config);
        }
        JinjavaInterpreter.pushCurrent(interpreter);
        String output;
        try (JinjavaInterpreter.InterpreterScopeClosable scope = interpreter.enterScope()) {
            interpreter.getContext().putAll(variables); // this render's scope, gone when it closes
            output = interpreter.render(tree, true);
        } catch (RuntimeException e) {
            throw failure(TemplateError.fromException(e));
        } finally {
            JinjavaInterpreter.popCurrent();
        }
        List<TemplateError> errors = interpreter.getErrorsCopy();
        if (errors.isEmpty()) { // an interpreter keeps its errors for good, so one that has any is dropped
            interpreter.getContext().reset(); // what the render resolved, recorded in the thread's context
            interpreters.set(interpreter);
        }
        failOnFatal(errors);
        // as renderForResult ends its output (a block tag's own newline is trim_blocks' to drop, not this)
        return config.isKeepTrailingNewline() || !output.endsWith("\n") ? output
                : output.substring(0, output.length() - 1);
    }

    private static void failOnFatal(List<TemplateError> errors) throws TokenizerFormatException {
        for (TemplateError error : errors) {
            if (error.getSeverity() == TemplateError.ErrorType.FATAL) {
                throw failure(error);
            }
        }
    }

    private static TokenizerFormatException failure(TemplateError error) {
        Throwable cause = error.getException();
        while (cause != null && cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return new TokenizerFormatException("chat template failed: " + error.getMessage()
                + (cause == null ? "" : ": " + cause.getMessage()));
    }

    /** transformers' strftime_now: the engine's local time now, in Python's strftime format (Llama 3.2's date). */
    public static String strftimeNow(String format) {
        return PythonStrftime.format(format, ZonedDateTime.now());
    }

    /** Jinja's raise_exception, as transformers defines it for chat templates. */
    public static String raiseException(String message) {
        throw new IllegalArgumentException(message);
    }
}
