package io.pdgateway.core.routing.pick;

import static io.pdgateway.core.PodBuilder.pod;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.ScoredPods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pair-picker table rows written as rolesets of "name=score" pods (names starting with p are prefill pods, with d
 * decode pods): the pods, the candidates and both sides' scores a picker takes.
 */
record ScoredRolesets(List<Pod> pods, PdCandidates candidates, ScoredPods prefill, ScoredPods decode) {

    /** Each roleset: its name, then its pods as "name=score". */
    static ScoredRolesets of(List<String[]> rolesets) {
        List<Roleset> built = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        Map<Pod, Double> prefill = new LinkedHashMap<>();
        Map<Pod, Double> decode = new LinkedHashMap<>();
        for (String[] rs : rolesets) {
            List<Pod> prefills = new ArrayList<>();
            List<Pod> decodes = new ArrayList<>();
            for (int i = 1; i < rs.length; i++) {
                String[] nameScore = rs[i].split("=");
                boolean isPrefill = nameScore[0].startsWith("p");
                Pod pod = isPrefill ? pod(nameScore[0]).prefill(rs[0]).build() : pod(nameScore[0]).decode(rs[0]).build();
                (isPrefill ? prefills : decodes).add(pod);
                (isPrefill ? prefill : decode).put(pod, Double.parseDouble(nameScore[1]));
                pods.add(pod);
            }
            built.add(new Roleset(rs[0], prefills, decodes));
        }
        return new ScoredRolesets(pods, new PdCandidates(built, List.of()), scored(prefill), scored(decode));
    }

    private static ScoredPods scored(Map<Pod, Double> scores) {
        double[] values = new double[scores.size()];
        int i = 0;
        for (double v : scores.values()) {
            values[i++] = v;
        }
        return ScoredPods.of(new ArrayList<>(scores.keySet()), values);
    }
}
