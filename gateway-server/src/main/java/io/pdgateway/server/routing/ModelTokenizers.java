package io.pdgateway.server.routing;

import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.Tokenizer;
import io.pdgateway.server.kvevents.TokenizerFiles;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Each model's own tokenizer, read from local files at start-up (never the network), for
 * {@code AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=huggingface}: the prompt's blocks then hash exactly as the blocks the model's
 * engines report in their KV-cache events.
 * <ul>
 *   <li>{@value #FILES_ENV}: {@code model=/path/tokenizer.json}, comma-separated, one per model;
 *   <li>{@value #CHAT_TEMPLATES_ENV}: {@code model=/path/tokenizer_config.json}, whose {@code chat_template} renders
 *       chat requests as the engine renders them before tokenizing (without one, chat messages are tokenized as their
 *       contents joined by spaces).
 * </ul>
 * With {@code remote} the files are optional: a model without one gets each request's tokens from its engines
 * ({@link #remote()}, {@link RemoteTokenizer}). A file that is missing or unreadable, or a malformed entry, stops
 * start-up with a message naming it. Immutable.
 */
public final class ModelTokenizers {
    public static final String FILES_ENV = "PD_GATEWAY_PREFIX_CACHE_TOKENIZER_FILES";
    public static final String CHAT_TEMPLATES_ENV = "PD_GATEWAY_PREFIX_CACHE_CHAT_TEMPLATES";
    public static final ModelTokenizers NONE = new ModelTokenizers(Map.of(), Map.of());

    private final Map<String, Tokenizer> tokenizers;
    private final Map<String, ChatTemplate> templates;
    private final RemoteTokenizerSettings remote;

    public ModelTokenizers(Map<String, Tokenizer> tokenizers, Map<String, ChatTemplate> templates) {
        this(tokenizers, templates, null);
    }

    /** @param remote where models without a file get their tokens ({@code remote}), or null */
    public ModelTokenizers(Map<String, Tokenizer> tokenizers, Map<String, ChatTemplate> templates,
            RemoteTokenizerSettings remote) {
        this.tokenizers = Map.copyOf(tokenizers);
        this.templates = Map.copyOf(templates);
        this.remote = remote;
    }

    /**
     * Loads the files the environment names, and with {@code remote} where the other models' tokens come from
     * ({@link RemoteTokenizerSettings}). With another tokenizer type the settings are ignored; with
     * {@code huggingface} and no file at all, start-up stops (nothing could match the engines' events).
     *
     * @throws IllegalStateException naming the setting or file that is wrong
     */
    public static ModelTokenizers fromEnv(Map<String, String> env, PrefixTokenizerType type) {
        if (type != PrefixTokenizerType.HUGGINGFACE && type != PrefixTokenizerType.REMOTE) {
            return NONE;
        }
        Map<String, Path> files = entries(env, FILES_ENV);
        if (files.isEmpty() && type == PrefixTokenizerType.HUGGINGFACE) {
            throw new IllegalStateException("AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=huggingface needs " + FILES_ENV
                    + " (model=/path/tokenizer.json,...)");
        }
        Map<String, Tokenizer> tokenizers = new HashMap<>();
        files.forEach((model, path) -> tokenizers.put(model, TokenizerFiles.tokenizer(path)));
        Map<String, ChatTemplate> templates = new HashMap<>();
        entries(env, CHAT_TEMPLATES_ENV).forEach((model, path) -> templates.put(model, TokenizerFiles.chatTemplate(path)));
        return new ModelTokenizers(tokenizers, templates,
                type == PrefixTokenizerType.REMOTE ? RemoteTokenizerSettings.fromEnv(env) : null);
    }

    /**
     * {@code env} with the two file settings narrowed to {@code model}'s entries (absent when it has none), so that
     * loading it reads that model's files alone: a tool about one model neither waits on nor fails for another's.
     *
     * @throws IllegalStateException naming a setting with a malformed entry, as {@link #fromEnv} would
     */
    public static Map<String, String> onlyModel(Map<String, String> env, String model) {
        Map<String, String> narrowed = new HashMap<>(env);
        for (String key : new String[] {FILES_ENV, CHAT_TEMPLATES_ENV}) {
            Path path = entries(env, key).get(model);
            if (path == null) {
                narrowed.remove(key);
            } else {
                narrowed.put(key, model + "=" + path);
            }
        }
        return narrowed;
    }

    /** The model's tokenizer, or null. */
    public Tokenizer tokenizer(String model) {
        return tokenizers.get(model);
    }

    /** Where models without a file get their tokens ({@code remote}), or null. */
    public RemoteTokenizerSettings remote() {
        return remote;
    }

    /**
     * Null when the model's prompts hash over the tokens its engines compute (its file, with its chat template for
     * chat requests, or its engines asked), so that they can match the blocks its engines report in KV events; else
     * what does not, and the setting that mends it, worded to follow "publishes KV-cache events for model M, ".
     */
    public String unlikeEngines(String model) {
        if (tokenizers.containsKey(model)) {
            return templates.containsKey(model) ? null : "whose chat requests the gateway tokenizes without the "
                    + "model's chat template: no chat prompt can match the blocks they report (completions can). "
                    + "Set " + CHAT_TEMPLATES_ENV + " with the model's tokenizer_config.json";
        }
        return remote != null ? null : "whose prompts the gateway does not tokenize as its engines do: no prompt can "
                + "match the blocks they report. Set AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote, or huggingface with "
                + "the model's tokenizer.json";
    }

    /** The model's chat template, or null. */
    public ChatTemplate chatTemplate(String model) {
        return templates.get(model);
    }

    private static Map<String, Path> entries(Map<String, String> env, String key) {
        Map<String, Path> out = new HashMap<>();
        String value = env.get(key);
        if (value == null || value.isBlank()) {
            return out;
        }
        for (String entry : value.split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.indexOf('=');
            if (eq <= 0 || eq == e.length() - 1) {
                throw new IllegalStateException(key + ": expected model=/path, got '" + e + "'");
            }
            String model = e.substring(0, eq).trim();
            if (out.put(model, Path.of(e.substring(eq + 1).trim())) != null) {
                throw new IllegalStateException(key + ": model '" + model + "' is named twice");
            }
        }
        return out;
    }
}
