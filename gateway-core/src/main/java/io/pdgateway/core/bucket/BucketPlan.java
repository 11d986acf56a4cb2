package io.pdgateway.core.bucket;

import java.util.List;
import java.util.Map;

/** The bands of every model, computed off the request path and swapped in whole. Immutable. */
public record BucketPlan(Map<String, List<Band>> bands) {
    public static final BucketPlan EMPTY = new BucketPlan(Map.of());

    public BucketPlan {
        bands = Map.copyOf(bands);
    }

    /** The roleset banded for this prompt length, or null where the plan holds no band. */
    public String rolesetFor(String model, int promptTokens) {
        List<Band> modelBands = bands.get(model);
        if (modelBands == null) {
            return null;
        }
        for (Band band : modelBands) {
            if (band.covers(promptTokens)) {
                return band.roleset();
            }
        }
        return null;
    }
}
