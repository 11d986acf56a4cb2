package io.pdgateway.workload.prompt;

import io.pdgateway.workload.trace.TraceRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompt text for a trace row, from its hash ids: each {@link TraceRequest#HASH_BLOCK_TOKENS}-token block's text is
 * drawn from its id, so two rows whose leading ids agree share that prefix text exactly, and a prefix cache sees the
 * hits the production cache saw. The last block is usually partial: it is the start of its id's full text. A row
 * without ids (Azure) gets text of its own.
 */
public final class TracePrompts {
    /** Seed family of prompts that share nothing, named by the row's index (any constant no other family uses). */
    static final long UNSHARED_FAMILY = 0xA2_2023L;
    /** Seed family of hash-id blocks. */
    static final long BLOCK_FAMILY = 0x300_0CA4EL;
    /** Seed family of the text past the last listed block, should a row list too few ids (own text per row). */
    static final long TAIL_FAMILY = 0x300_0CA4FL;

    private TracePrompts() {}

    public static PromptPlan plan(TraceRequest row) {
        long[] hashIds = row.hashIds();
        if (hashIds.length == 0) {
            return PromptPlan.single(row.promptTokens(), PromptPlan.seed(UNSHARED_FAMILY, row.index()));
        }
        List<PromptPlan.Segment> segments = new ArrayList<>();
        int left = row.promptTokens();
        for (long id : hashIds) {
            if (left <= 0) {
                break;
            }
            int tokens = Math.min(TraceRequest.HASH_BLOCK_TOKENS, left);
            segments.add(new PromptPlan.Segment(PromptPlan.seed(BLOCK_FAMILY, id), tokens));
            left -= tokens;
        }
        if (left > 0) {
            segments.add(new PromptPlan.Segment(PromptPlan.seed(TAIL_FAMILY, row.index()), left));
        }
        return new PromptPlan(segments);
    }
}
