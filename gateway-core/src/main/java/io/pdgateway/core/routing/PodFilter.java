package io.pdgateway.core.routing;

import java.util.List;

/** A cascade stage that narrows the candidates. It may only remove, never add; the runner checks this. */
public interface PodFilter {
    String name();

    Result filter(RoutingContext context, PdCandidates candidates);

    /** The survivors, and one line per rejected roleset or pod saying why. */
    record Result(PdCandidates survivors, List<String> rejections) {
        public Result {
            rejections = List.copyOf(rejections);
        }
    }
}
