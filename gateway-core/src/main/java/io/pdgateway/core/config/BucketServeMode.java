package io.pdgateway.core.config;

import java.util.List;
import java.util.Optional;

/** AIBRIX_BUCKET_SERVE_MODE: the unit adaptive bucket serving balances. */
public enum BucketServeMode {
    /** Spec default: prompt-token mass. */
    THROUGHPUT("throughput"),
    /** Request counts. */
    RPS("rps");

    private final String specName;

    BucketServeMode(String specName) {
        this.specName = specName;
    }

    public static Optional<BucketServeMode> named(String name) {
        for (BucketServeMode mode : values()) {
            if (mode.specName.equals(name)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }

    public static List<String> specNames() {
        return List.of(THROUGHPUT.specName, RPS.specName);
    }

    @Override
    public String toString() {
        return specName;
    }
}
