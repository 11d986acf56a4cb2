package io.pdgateway.sim;

/** Receives the tokens the engine loop produces for one sequence, on the pod's event loop. */
public interface SequenceListener {

    /**
     * Token {@code index} (0-based) was produced at the end of an engine step.
     *
     * @param finishReason null while more tokens follow; {@code "length"} on the last one
     */
    void onToken(int index, String finishReason);
}
