package io.pdgateway.server.discovery;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.pdgateway.core.model.PodObject;
import io.pdgateway.core.model.PodObjectReader;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the fields discovery needs from a fabric8 Pod, so informer pods go through the same {@link PodObjectReader}. */
final class KubernetesPodObjects {
    private static final String READY = "Ready";
    private static final String FALSE = "False";

    private KubernetesPodObjects() {}

    static PodObject of(Pod pod) {
        ObjectMeta metadata = pod.getMetadata();
        PodStatus status = pod.getStatus();
        String namespace = metadata.getNamespace() == null ? "default" : metadata.getNamespace();
        return new PodObject(namespace, metadata.getName(), strings(metadata.getLabels()),
                strings(metadata.getAnnotations()), status == null ? null : status.getPodIP(),
                metadata.getDeletionTimestamp() != null, status != null && readyIsFalse(status));
    }

    private static boolean readyIsFalse(PodStatus status) {
        if (status.getConditions() == null) {
            return false;
        }
        for (PodCondition condition : status.getConditions()) {
            if (READY.equals(condition.getType()) && FALSE.equalsIgnoreCase(condition.getStatus())) {
                return true;
            }
        }
        return false;
    }

    /** Map.copyOf in PodObject refuses nulls, which the API never sends for labels but a hand-built object might. */
    private static Map<String, String> strings(Map<String, String> values) {
        Map<String, String> out = new LinkedHashMap<>();
        if (values != null) {
            values.forEach((k, v) -> {
                if (k != null && v != null) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }
}
