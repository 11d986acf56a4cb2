package io.pdgateway.server.kvevents;

/** The engine dropped its whole prefix cache. */
public record AllBlocksCleared() implements KvEvent {}
