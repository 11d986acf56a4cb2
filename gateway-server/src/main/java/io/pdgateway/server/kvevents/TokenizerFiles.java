package io.pdgateway.server.kvevents;

import io.pdgateway.core.tokenize.BpeTokenizer;
import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.HfTokenizerJson;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a model's tokenizer files from local disk at start-up (never from the network): {@code tokenizer.json} and,
 * for chat requests, {@code tokenizer_config.json}. Every failure is an {@link IllegalStateException} whose message
 * names the file and what is wrong with it, for the start-up error.
 */
public final class TokenizerFiles {
    private TokenizerFiles() {}

    public static BpeTokenizer tokenizer(Path tokenizerJson) {
        try {
            return HfTokenizerJson.parse(read(tokenizerJson));
        } catch (TokenizerFormatException e) {
            throw new IllegalStateException("tokenizer file " + tokenizerJson + " cannot be used: " + e.getMessage(),
                    e);
        }
    }

    public static ChatTemplate chatTemplate(Path tokenizerConfigJson) {
        try {
            return ChatTemplate.fromTokenizerConfig(read(tokenizerConfigJson));
        } catch (TokenizerFormatException e) {
            throw new IllegalStateException("tokenizer config " + tokenizerConfigJson + " cannot be used: "
                    + e.getMessage(), e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("tokenizer file " + file + " does not exist", e);
        } catch (IOException e) {
            throw new IllegalStateException("tokenizer file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }
}
