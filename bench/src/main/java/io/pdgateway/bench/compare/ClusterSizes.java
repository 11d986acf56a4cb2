package io.pdgateway.bench.compare;

import io.pdgateway.sim.TimingProfile;

/**
 * How big each kind of cluster in a comparison is. By default every setup has six simulated GPUs: six standard pods,
 * or two rolesets of two prefill and one decode pod (a prefill-heavy split, as the Mooncake trace is: ~13k-token
 * prompts, short answers). The PD-plus-standard setup adds {@code overflowPods} standard pods to the PD cluster and
 * sends them the prompts of at least {@code standardMinPromptTokens} tokens, as the spec's complete example does.
 *
 * @param standardPods            pods of a non-PD cluster
 * @param rolesets                rolesets of a PD cluster
 * @param prefillPerRoleset       prefill pods in each roleset
 * @param decodePerRoleset        decode pods in each roleset
 * @param overflowPods            standard pods added to a PD cluster in {@code pd+standard} setups
 * @param standardMinPromptTokens in {@code pd+standard} setups, prompts this long or longer go to standard pods
 */
public record ClusterSizes(int standardPods, int rolesets, int prefillPerRoleset, int decodePerRoleset,
        int overflowPods, int standardMinPromptTokens, TimingProfile timing, double timeScale) {
    public ClusterSizes {
        if (standardPods < 1 || rolesets < 1 || prefillPerRoleset < 1 || decodePerRoleset < 1 || overflowPods < 1) {
            throw new IllegalArgumentException("every cluster kind needs at least one pod (roleset)");
        }
        if (standardMinPromptTokens < 1) {
            throw new IllegalArgumentException("the standard pods' prompt threshold must be >= 1 token");
        }
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("time scale must be > 0, got " + timeScale);
        }
    }
}
