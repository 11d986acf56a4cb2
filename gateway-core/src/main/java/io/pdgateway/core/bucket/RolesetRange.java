package io.pdgateway.core.bucket;

/**
 * A roleset as the planner sees it: the prompt lengths both its prefill and decode pods declare (the intersection of
 * their ranges, inclusive) and how many replicas it has.
 */
public record RolesetRange(String roleset, int min, int max, int replicas) {}
