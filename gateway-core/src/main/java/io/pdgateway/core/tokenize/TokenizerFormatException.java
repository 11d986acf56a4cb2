package io.pdgateway.core.tokenize;

/** A tokenizer.json or tokenizer_config.json this package cannot use; the message names what and where. */
public final class TokenizerFormatException extends Exception {
    public TokenizerFormatException(String message) {
        super(message);
    }

    public TokenizerFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
