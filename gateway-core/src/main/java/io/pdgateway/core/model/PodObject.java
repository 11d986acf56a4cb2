package io.pdgateway.core.model;

import java.util.Map;

/**
 * The fields of a Kubernetes Pod object that discovery reads, whichever parser produced them (the pod file's YAML or
 * the fabric8 informer's model). Keeping this neutral lets both sources share one conversion, {@link PodObjectReader}.
 *
 * @param namespace metadata.namespace ("default" when absent)
 * @param labels metadata.labels, scalar values only
 * @param annotations metadata.annotations, scalar values only
 * @param podIp status.podIP, or null/empty when not assigned yet
 * @param terminating metadata.deletionTimestamp is set: the pod is being deleted
 * @param readyFalse status.conditions has type Ready with status False
 */
public record PodObject(String namespace, String name, Map<String, String> labels, Map<String, String> annotations,
        String podIp, boolean terminating, boolean readyFalse) {

    public PodObject {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }

    public String id() {
        return namespace + "/" + name;
    }
}
