package io.pdgateway.server.discovery;

import io.pdgateway.core.model.ClusterSnapshot;

/** Where the gateway's view of the cluster comes from: a pod file, or Kubernetes. */
public interface PodSource extends AutoCloseable {
    /** The latest good view; never null. */
    ClusterSnapshot current();

    /** True once the source has been read successfully at least once. */
    boolean ready();

    /**
     * True while the source can see changes (exported as a gauge). Kubernetes: every informer holds a live watch.
     * By default, a source that has been read once counts as connected (the pod file is polled, never cut off).
     */
    default boolean connected() {
        return ready();
    }

    @Override
    void close();
}
