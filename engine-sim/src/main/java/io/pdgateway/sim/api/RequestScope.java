package io.pdgateway.sim.api;

/** The lifetime of one completion request, for work a personality starts on its behalf (a KV fetch, a held KV). */
public interface RequestScope {

    /** Runs {@code action} once when the request ends, however it ends; at once if it already did. */
    void onEnd(Runnable action);
}
