package io.pdgateway.routingsim.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates a {@link ChatServiceMix} from a seed: the same seed gives the same requests. Sessions arrive as a Poisson
 * process; a session's turns follow each other after exponential think times (open loop: the next turn does not wait
 * for the answer, so every policy sees the same stream). Turn k's prompt is the system prompt, every earlier message
 * and answer, and the new message, so a session's prompts share ever longer prefixes.
 */
public final class ChatServiceWorkload {
    /** A turn adds at least this many tokens: one short sentence. */
    static final int MIN_USER_TOKENS = 16;
    /** Answers are capped like a typical max_tokens. */
    static final int MAX_OUTPUT_TOKENS = 4096;

    private ChatServiceWorkload() {}

    public static Workload generate(ChatServiceMix mix, long seed, int blockSize) {
        SplittableRandom random = new SplittableRandom(seed);
        double sessionRate = mix.rate() / mix.turns();
        long windowNanos = Math.round(mix.seconds() * 1e9);
        List<SimRequest> pending = new ArrayList<>();
        double t = exponential(random, 1 / sessionRate);
        for (int session = 0; t * 1e9 < windowNanos; session++) {
            addSession(pending, mix, random, session, t, windowNanos, blockSize);
            t += exponential(random, 1 / sessionRate);
        }
        pending.sort(Comparator.comparingLong(SimRequest::arrivalNanos).thenComparingInt(SimRequest::index));
        List<SimRequest> requests = new ArrayList<>(pending.size());
        for (SimRequest r : pending) {
            requests.add(new SimRequest(requests.size(), r.arrivalNanos(), r.promptTokens(), r.outputTokens(),
                    r.blockHashes(), r.sessionKey()));
        }
        return new Workload("synthetic", mix.spec() + " seed=" + seed, requests);
    }

    private static void addSession(List<SimRequest> out, ChatServiceMix mix, SplittableRandom random, int session,
            double start, long windowNanos, int blockSize) {
        List<Long> ids = new ArrayList<>();
        List<Integer> lengths = new ArrayList<>();
        int system = random.nextInt(mix.systems());
        if (mix.systemTokens() > 0) {
            ids.add((long) system);
            lengths.add(mix.systemTokens());
        }
        boolean document = random.nextDouble() < mix.longShare();
        double at = start;
        for (int turn = 0; turn < mix.turns() && at * 1e9 < windowNanos; turn++) {
            int user = turn == 0 && document ? mix.longTokens()
                    : Math.max(MIN_USER_TOKENS, (int) Math.round(exponential(random, mix.userTokens())));
            ids.add(segmentId(session, turn, 0));
            lengths.add(user);
            int prompt = lengths.stream().mapToInt(Integer::intValue).sum();
            int output = (int) Math.min(MAX_OUTPUT_TOKENS, Math.max(1, Math.round(exponential(random, mix.outputTokens()))));
            long[] hashes = BlockHashes.of(ids.stream().mapToLong(Long::longValue).toArray(),
                    lengths.stream().mapToInt(Integer::intValue).toArray(), prompt, blockSize);
            out.add(new SimRequest(out.size(), Math.round(at * 1e9), prompt, output, hashes, "session-" + session));
            ids.add(segmentId(session, turn, 1));
            lengths.add(output);
            at += exponential(random, mix.thinkSeconds());
        }
    }

    /** Content ids of a session's messages (part 0) and answers (part 1), apart from the small system-prompt ids. */
    private static long segmentId(int session, int turn, int part) {
        return BlockHashes.mix(((long) session << 20 | (long) turn << 1 | part) + 0x1000_0000L) | Long.MIN_VALUE;
    }

    private static double exponential(SplittableRandom random, double mean) {
        return mean <= 0 ? 0 : -mean * Math.log(1 - random.nextDouble());
    }
}
