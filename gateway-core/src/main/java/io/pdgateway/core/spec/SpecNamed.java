package io.pdgateway.core.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A value users name in the spec's spelling (a strategy, a scoring policy, a mode): the enums of such values look a
 * user's word up and list their names for messages through here, so no two of them match names differently by accident.
 */
public interface SpecNamed {
    /** The spec's spelling: what users write in labels, headers, routingConfig and the environment. */
    String specName();

    /** The value among {@code values} spelled exactly {@code name}; empty when none is, or for null. */
    static <T extends SpecNamed> Optional<T> find(T[] values, String name) {
        for (T value : values) {
            if (value.specName().equals(name)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** Every value's spec name, in the order given (an enum's declaration order, for messages and help texts). */
    static List<String> names(SpecNamed[] values) {
        List<String> names = new ArrayList<>(values.length);
        for (SpecNamed value : values) {
            names.add(value.specName());
        }
        return List.copyOf(names);
    }
}
