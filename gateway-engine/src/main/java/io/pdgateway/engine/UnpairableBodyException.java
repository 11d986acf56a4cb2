package io.pdgateway.engine;

/**
 * A valid body that this engine's prefill/decode hand-off cannot carry, though a pod serving requests whole can (a
 * completions batch of several prompts, {@link PromptBatches}): the gateway sends it to a standard pod of the model
 * when there is one, and refuses it only when there is none.
 */
public final class UnpairableBodyException extends EngineProtocolException {
    public UnpairableBodyException(String message) {
        super(message);
    }
}
