package io.pdgateway.core.config;

import io.pdgateway.core.spec.SpecNamed;
import java.util.List;
import java.util.Optional;

/** AIBRIX_BUCKET_SERVE_MODE: the unit adaptive bucket serving balances. */
public enum BucketServeMode implements SpecNamed {
    /** Spec default: prompt-token mass. */
    THROUGHPUT("throughput"),
    /** Request counts. */
    RPS("rps");

    private final String specName;

    BucketServeMode(String specName) {
        this.specName = specName;
    }

    public static Optional<BucketServeMode> named(String name) {
        return SpecNamed.find(values(), name);
    }

    public static List<String> specNames() {
        return SpecNamed.names(values());
    }

    @Override
    public String specName() {
        return specName;
    }

    @Override
    public String toString() {
        return specName;
    }
}
