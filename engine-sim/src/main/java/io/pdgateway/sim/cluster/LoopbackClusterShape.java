package io.pdgateway.sim.cluster;

import io.pdgateway.sim.TimingProfile;

/**
 * What a simulated cluster is made of: prefill/decode rolesets (one prefill and one decode pod each) and standard
 * pods, the {@code model.aibrix.ai/config} annotation of each kind, and the engine timing.
 *
 * @param rolesets        prefill/decode rolesets, named group-0, group-1, ...
 * @param prefillPerRoleset prefill pods in each roleset
 * @param decodePerRoleset  decode pods in each roleset
 * @param standardPods    standard (combined) pods, named standard-0, ...
 * @param pdConfig        config annotation of prefill and decode pods, or null for none
 * @param standardConfig  config annotation of standard pods, or null for none
 * @param timing          the simulated engine's timing model (the same for every pod)
 * @param timeScale       wall time per unit of modelled time (1.0 = a real H100's speed)
 */
public record LoopbackClusterShape(int rolesets, int prefillPerRoleset, int decodePerRoleset, int standardPods, String pdConfig, String standardConfig, TimingProfile timing,
        double timeScale) {
    /** The spec's "Complete Example": PD pods take 0–2048-token prompts, standard pods 2048 and up. */
    public static final int DEMO_PD_BUCKET_MAX = 2048;

    /** A standard pod in the spec's sense: {@code combined: true}, any prompt length. */
    public static final String COMBINED = "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}";

    public LoopbackClusterShape {
        if (rolesets < 0 || standardPods < 0 || rolesets + standardPods == 0) {
            throw new IllegalArgumentException("a cluster needs at least one roleset or standard pod");
        }
        if (prefillPerRoleset < 1 || decodePerRoleset < 1) {
            throw new IllegalArgumentException("a roleset needs at least one prefill and one decode pod");
        }
    }

    /** The demo's cluster: two rolesets for prompts up to 2048 tokens, one standard pod for longer prompts. */
    public static LoopbackClusterShape demo(double timeScale) {
        String pd = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
                + "{\"promptLenBucketMinLength\":0,\"promptLenBucketMaxLength\":" + DEMO_PD_BUCKET_MAX + "}}}}";
        String standard = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
                + "{\"combined\":true,\"promptLenBucketMinLength\":" + DEMO_PD_BUCKET_MAX + "}}}}";
        return new LoopbackClusterShape(2, 1, 1, 1, pd, standard, TimingProfile.llama3_8b_h100(), timeScale);
    }

    public int pods() {
        return rolesets * (prefillPerRoleset + decodePerRoleset) + standardPods;
    }

    /** Bucket annotations that send prompts of at least {@code minTokens} tokens to the standard pods, the rest to PD. */
    public static String pdBelow(int minTokens) {
        return "{\"profiles\":{\"default\":{\"routingConfig\":{\"promptLenBucketMinLength\":0,"
                + "\"promptLenBucketMaxLength\":" + (minTokens - 1) + "}}}}";
    }

    /** The standard pods' half of {@link #pdBelow(int)}. */
    public static String standardFrom(int minTokens) {
        return "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true,\"promptLenBucketMinLength\":"
                + minTokens + "}}}}";
    }

    public String describe() {
        StringBuilder text = new StringBuilder();
        if (rolesets > 0) {
            text.append(rolesets).append(" roleset").append(rolesets == 1 ? "" : "s").append(" of ")
                    .append(prefillPerRoleset).append(" prefill + ").append(decodePerRoleset).append(" decode");
        }
        if (standardPods > 0) {
            text.append(text.isEmpty() ? "" : " + ").append(standardPods).append(" standard pod")
                    .append(standardPods == 1 ? "" : "s");
        }
        return text.append(" (").append(pods()).append(" simulated ").append(timing.name()).append(" GPUs)").toString();
    }
}
