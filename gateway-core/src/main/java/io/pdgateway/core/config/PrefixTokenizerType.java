package io.pdgateway.core.config;

import java.util.List;
import java.util.Optional;

/** AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE: how the gateway turns a prompt into the tokens its prefix blocks hash. */
public enum PrefixTokenizerType {
    /** Upstream's default (reference §7): the prompt's bytes, four to a token. */
    CHARACTER("character"),
    /** cl100k_base, a real BPE tokenizer, though not the model's own. */
    TIKTOKEN("tiktoken");

    private final String specName;

    PrefixTokenizerType(String specName) {
        this.specName = specName;
    }

    public static Optional<PrefixTokenizerType> named(String name) {
        for (PrefixTokenizerType type : values()) {
            if (type.specName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    public static List<String> specNames() {
        return List.of(CHARACTER.specName, TIKTOKEN.specName);
    }

    @Override
    public String toString() {
        return specName;
    }
}
