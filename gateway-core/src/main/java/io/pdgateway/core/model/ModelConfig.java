package io.pdgateway.core.model;

import java.util.Map;

/**
 * The parsed model.aibrix.ai/config annotation.
 *
 * @param lockedRoutingStrategy model-wide pin that no header can override; may be null
 * @param defaultProfile the profile used when the request names none or an unknown one; "default" when unset
 */
public record ModelConfig(String lockedRoutingStrategy, String defaultProfile, Map<String, Profile> profiles) {
    public static final String DEFAULT_PROFILE_NAME = "default";

    public ModelConfig {
        profiles = Map.copyOf(profiles);
        if (defaultProfile == null || defaultProfile.isBlank()) {
            defaultProfile = DEFAULT_PROFILE_NAME;
        }
    }

    /** The requested profile when it exists, else the default profile, else null (upstream ResolveProfileFromPod). */
    public Profile resolve(String requestedProfile) {
        if (requestedProfile != null) {
            Profile exact = profiles.get(requestedProfile);
            if (exact != null) {
                return exact;
            }
        }
        return profiles.get(defaultProfile);
    }
}
