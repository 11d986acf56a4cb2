package io.pdgateway.core.model;

import io.pdgateway.core.spec.SpecLabels;

/** A pod's phase, from its role-name label. */
public enum PodRole {
    PREFILL,
    DECODE,
    /** role-name absent or any value other than prefill/decode: a pod that can serve a whole request alone. */
    OTHER;

    public static PodRole fromLabel(String roleName) {
        if (SpecLabels.ROLE_PREFILL.equals(roleName)) {
            return PREFILL;
        }
        if (SpecLabels.ROLE_DECODE.equals(roleName)) {
            return DECODE;
        }
        return OTHER;
    }
}
