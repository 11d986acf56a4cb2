package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One row of a pod-picker table: the pods in order, the request and load around them, and the pods the strategy may
 * pick ({@link Picks#NONE} for no pod). Several expected pods are a tie, which must go to each of them under some
 * seeds, not to the first in the list.
 */
public record PickRow(String name, List<Pod> pods, Contexts.Request request, Set<String> expected) {

    public static PickRow row(String name, List<Pod> pods, Contexts.Request request, String... expected) {
        return new PickRow(name, pods, request, Set.of(expected));
    }

    /** Picks under every seed of {@link Picks} and checks the answers are the expected ones, ties spread. */
    public void check(PodPicker picker) {
        request.checkRejections(name);
        Picks.assertSpread(picker.name() + " in row '" + name + "'", Picks.underSeeds(seed -> {
            Pod pod = picker.pick(request.over(pods, seed), new ArrayList<>(pods));
            return pod == null ? null : pod.name();
        }), expected);
    }

    @Override
    public String toString() {
        return name;
    }
}
