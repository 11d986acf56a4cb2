package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * Some pods of a list, in its order, held as their positions in it: the subset a scorer decorator hands its inner
 * scorer (the stddev skip's kept pods, the cold start's warm ones). A decision's subset is the model's reused one, and
 * filling it stores ints: a reused list of the pods themselves stored thousands of references into an old object per
 * decision, each paying the collector's write barrier. Read-only to its readers; valid until the next {@link #reset}.
 */
public final class PodSubset extends AbstractList<Pod> implements RandomAccess {
    private List<Pod> whole = List.of();
    private int[] positions = new int[16];
    private int size;

    /** Empties this subset for positions of {@code of}, with room for {@code capacity} of them; returns this. */
    public PodSubset reset(List<Pod> of, int capacity) {
        whole = of;
        size = 0;
        if (positions.length < capacity) {
            positions = new int[capacity];
        }
        return this;
    }

    /** Appends the pod at {@code position} of the list this subset is of. */
    public void add(int position) {
        if (size == positions.length) {
            positions = Arrays.copyOf(positions, Math.max(16, 2 * size));
        }
        positions[size++] = position;
    }

    /** The list this subset is of. */
    public List<Pod> whole() {
        return whole;
    }

    /** The position in {@link #whole} of this subset's pod at {@code index}. */
    public int position(int index) {
        Objects.checkIndex(index, size);
        return positions[index];
    }

    @Override
    public Pod get(int index) {
        Objects.checkIndex(index, size);
        return whole.get(positions[index]);
    }

    @Override
    public int size() {
        return size;
    }
}
