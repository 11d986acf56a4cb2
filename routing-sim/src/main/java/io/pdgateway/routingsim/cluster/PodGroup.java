package io.pdgateway.routingsim.cluster;

import java.util.Map;

/**
 * One line of a cluster shape: {@code replicas} rolesets of {@code prefill} prefill and {@code decode} decode pods,
 * or (both 0) {@code replicas} standard pods, with the prompt-length range and routingConfig their profile declares.
 *
 * @param bucketMin promptLenBucketMinLength, or -1 when the profile does not set it
 * @param bucketMax promptLenBucketMaxLength (0 = unlimited), or -1 when the profile does not set it
 * @param routingConfig further routingConfig keys of the pods' profile (e.g. per-profile knobs), as written
 */
public record PodGroup(String name, int replicas, int prefill, int decode, int bucketMin, int bucketMax,
        Map<String, Object> routingConfig) {

    public PodGroup {
        routingConfig = Map.copyOf(routingConfig);
        if (name == null || !name.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
            throw new IllegalArgumentException("group name '" + name + "' must be a DNS label (a-z, 0-9, -)");
        }
        if (replicas < 0 || prefill < 0 || decode < 0) {
            throw new IllegalArgumentException("group " + name + ": counts must be >= 0");
        }
    }

    public boolean standard() {
        return prefill == 0 && decode == 0;
    }

    public int pods() {
        return standard() ? replicas : replicas * (prefill + decode);
    }
}
