package io.pdgateway.core.config;

import io.pdgateway.core.spec.SpecNamed;
import java.util.List;
import java.util.Optional;

/** AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE: how the gateway turns a prompt into the tokens its prefix blocks hash. */
public enum PrefixTokenizerType implements SpecNamed {
    /** Upstream's default (reference §7): the prompt's bytes, four to a token. */
    CHARACTER("character"),
    /** cl100k_base, a real BPE tokenizer, though not the model's own. */
    TIKTOKEN("tiktoken"),
    /**
     * pd-gateway's extension: each model's own Hugging Face {@code tokenizer.json} (PD_GATEWAY_PREFIX_CACHE_TOKENIZER_FILES),
     * with its chat template for chat requests, so prompt blocks hash as the blocks its engine reports in KV events.
     * Models without a file are measured as {@link #CHARACTER}.
     */
    HUGGINGFACE("huggingface"),
    /**
     * AIBrix's name for asking an engine: each request's tokens come from a vLLM or SGLang {@code /tokenize} endpoint
     * (AIBRIX_PREFIX_CACHE_REMOTE_TOKENIZER_ENDPOINT, else one of the model's own pods), so prompt blocks hash as its
     * engines' KV events report them without a tokenizer file at the gateway. A model with a file in
     * PD_GATEWAY_PREFIX_CACHE_TOKENIZER_FILES uses the file; a request whose tokens do not come in time is measured as
     * {@link #CHARACTER}.
     */
    REMOTE("remote");

    private final String specName;

    PrefixTokenizerType(String specName) {
        this.specName = specName;
    }

    public static Optional<PrefixTokenizerType> named(String name) {
        return SpecNamed.find(values(), name);
    }

    public static List<String> specNames() {
        return SpecNamed.names(values());
    }

    @Override
    public String specName() {
        return specName;
    }

    @Override
    public String toString() {
        return specName;
    }
}
