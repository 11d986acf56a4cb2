package io.pdgateway.server.discovery;

import io.pdgateway.core.model.ClusterSnapshot;

/** Where the gateway's view of the cluster comes from: a pod file, or Kubernetes. */
public interface PodSource extends AutoCloseable {
    /** The latest good view; never null. */
    ClusterSnapshot current();

    /** True once the source has been read successfully at least once. */
    boolean ready();

    @Override
    void close();
}
