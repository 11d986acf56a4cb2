package io.pdgateway.core.routing.filter;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PodFilter;
import io.pdgateway.core.routing.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Leaves out the pods outlier detection ejected ({@link LoadView#ejected}: they refused connections or failed their
 * scrapes several times in a row), so requests stop going to dead pods. Like Envoy's panic threshold, it never
 * leaves a request with nothing: when every complete pair and every standard pod is ejected, it keeps its input and
 * the request takes its chances on the pods as they are. Runs before roleset completeness, so a roleset whose only
 * decode pod is ejected drops out.
 */
public final class EjectedPodsFilter implements PodFilter {
    public static final String NAME = "ejected-pods";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result filter(RoutingContext context, PdCandidates candidates) {
        LoadView load = context.load();
        if (!load.mayEject() || noneEjected(candidates, load)) {
            return new Result(candidates, List.of()); // the usual case: no copy of thousands of rolesets
        }
        List<String> rejections = new ArrayList<>();
        List<Roleset> rolesets = new ArrayList<>(candidates.rolesets().size());
        boolean anyPair = false;
        for (Roleset roleset : candidates.rolesets()) {
            Roleset kept = new Roleset(roleset.name(), live(roleset.prefills(), load, rejections),
                    live(roleset.decodes(), load, rejections));
            anyPair |= kept.isComplete();
            rolesets.add(kept);
        }
        List<Pod> standard = live(candidates.standard(), load, rejections);
        if (rejections.isEmpty()) {
            return new Result(candidates, List.of());
        }
        if (!anyPair && standard.isEmpty()) {
            return new Result(candidates, List.of("every pair and standard pod is ejected: routing over all of them"));
        }
        return new Result(new PdCandidates(rolesets, standard), rejections);
    }

    private static boolean noneEjected(PdCandidates candidates, LoadView load) {
        List<Roleset> rolesets = candidates.rolesets();
        for (int r = 0; r < rolesets.size(); r++) {
            Roleset roleset = rolesets.get(r);
            if (anyEjected(roleset.prefills(), load) || anyEjected(roleset.decodes(), load)) {
                return false;
            }
        }
        return !anyEjected(candidates.standard(), load);
    }

    private static boolean anyEjected(List<Pod> pods, LoadView load) {
        for (int i = 0; i < pods.size(); i++) {
            if (load.ejected(pods.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** The pods not ejected; names the others in {@code rejections}. */
    static List<Pod> live(List<Pod> pods, LoadView load, List<String> rejections) {
        List<Pod> kept = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            if (load.ejected(pod)) {
                rejections.add(pod.id() + ": ejected (refused connections or failed its scrapes)");
            } else {
                kept.add(pod);
            }
        }
        return kept;
    }
}
