package io.pdgateway.bench;

import io.pdgateway.workload.LengthDistribution;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.SyntheticWorkload;
import io.pdgateway.workload.WorkloadShaping;
import io.pdgateway.workload.trace.BundledTrace;
import io.pdgateway.workload.trace.TraceFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The workload options {@code bench run} and {@code bench compare} share: a trace or a synthetic mix, arrival-rate
 * scaling, and the caps that bound a run. Options left unset take the command's own defaults ({@link Defaults}).
 */
public final class WorkloadOptions {
    /** Requests per second of a synthetic mix when --rate is not given: light load, a first look. */
    static final double DEFAULT_SYNTHETIC_RATE = 5;

    @Option(names = "--trace", paramLabel = "FILE", description = "Azure trace CSV or Mooncake JSONL (told apart by "
            + "content), e.g. ../shared/traces/mooncake-conversation.jsonl.")
    Path trace;

    @Option(names = "--synthetic", description = "A synthetic mix instead of a trace (see --prompt-tokens, "
            + "--output-tokens, --shared-prefix-tokens, --turns, --burst-size).")
    boolean synthetic;

    @Option(names = "--speedup", description = "Trace arrivals this many times faster than recorded.")
    Double speedup;

    @Option(names = "--rate", description = "Requests per second (Poisson). With a trace: replaces the recorded "
            + "times, keeping lengths and prefixes. Synthetic default: 5.")
    Double rate;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Only requests arriving within this many "
            + "seconds (after scaling) are sent.")
    Double duration;

    @Option(names = "--requests", paramLabel = "N", description = "At most N requests (0: no cap).")
    Integer requests;

    @Option(names = "--max-prompt-tokens", paramLabel = "N", description = "Cut prompts to N tokens, keeping their "
            + "shared prefixes (0: no cap).")
    Integer maxPromptTokens;

    @Option(names = "--max-output-tokens", paramLabel = "N", description = "Cap completions at N tokens (0: no cap).")
    Integer maxOutputTokens;

    @Option(names = "--prompt-tokens", paramLabel = "DIST", defaultValue = "lognormal:1000:1.0",
            description = "Synthetic prompt (new turn) lengths: 512, 100..2000, lognormal:MEDIAN:SIGMA, or a mix "
                    + "0.8*100..500+0.2*4000..16000 (default: ${DEFAULT-VALUE}).")
    String promptTokens;

    @Option(names = "--output-tokens", paramLabel = "DIST", defaultValue = "32..256",
            description = "Synthetic completion lengths, same forms (default: ${DEFAULT-VALUE}).")
    String outputTokens;

    @Option(names = "--shared-prefix-tokens", paramLabel = "N", defaultValue = "0",
            description = "Synthetic: a system prompt of N tokens that every request starts with.")
    int sharedPrefixTokens;

    @Option(names = "--turns", paramLabel = "N", defaultValue = "1", description = "Synthetic: N-turn conversations "
            + "resending their history, each turn with its x-aibrix-session-key (default: ${DEFAULT-VALUE}).")
    int turns;

    @Option(names = "--think-time", paramLabel = "SECONDS", defaultValue = "5",
            description = "Synthetic: mean pause between two turns (default: ${DEFAULT-VALUE}).")
    double thinkSeconds;

    @Option(names = "--burst-every", paramLabel = "SECONDS", defaultValue = "0",
            description = "Synthetic: every this many seconds, --burst-size extra requests at once.")
    double burstEverySeconds;

    @Option(names = "--burst-size", paramLabel = "N", defaultValue = "0", description = "Synthetic: requests per burst.")
    int burstSize;

    @Option(names = "--seed", defaultValue = "1", description = "Seeds synthetic lengths, arrivals and prompt text "
            + "(default: ${DEFAULT-VALUE}).")
    long seed;

    /**
     * A command's defaults for what the user left unset.
     *
     * @param trace the bundled trace to use without --trace and --synthetic, or null to require one of them
     */
    public record Defaults(BundledTrace trace, double speedup, double durationSeconds, int maxOutputTokens) {}

    public LoadSchedule load(Defaults defaults, Path scratch) throws IOException {
        if (trace != null && synthetic) {
            throw new IllegalArgumentException("give either --trace or --synthetic, not both");
        }
        if (!synthetic && trace == null && defaults.trace() == null) {
            throw new IllegalArgumentException("give --trace FILE or --synthetic");
        }
        double seconds = duration != null ? duration : defaults.durationSeconds();
        int requestCap = requests != null ? requests : 0;
        int promptCap = maxPromptTokens != null ? maxPromptTokens : 0;
        int outputCap = maxOutputTokens != null ? maxOutputTokens : defaults.maxOutputTokens();
        if (synthetic) {
            SyntheticWorkload mix = new SyntheticWorkload(rate != null ? rate : DEFAULT_SYNTHETIC_RATE, seconds,
                    LengthDistribution.parse(promptTokens), LengthDistribution.parse(outputTokens), sharedPrefixTokens,
                    turns, thinkSeconds, burstEverySeconds, burstSize, seed);
            WorkloadShaping caps = new WorkloadShaping(1, 0, seconds, requestCap, promptCap, outputCap, seed);
            return new LoadSchedule(mix.describe() + describeCaps(caps), caps.apply(mix.generate()));
        }
        WorkloadShaping shaping = new WorkloadShaping(speedup != null ? speedup : defaults.speedup(),
                rate != null ? rate : 0, seconds, requestCap, promptCap, outputCap, seed);
        Path file = trace != null ? trace : defaults.trace().extract(Files.createDirectories(scratch));
        String source = trace != null ? trace.toString() : defaults.trace().description() + " (bundled)";
        TraceFormat format = TraceFormat.detect(file);
        List<LoadRequest> all = LoadRequest.fromTrace(format.read(file, Long.MAX_VALUE));
        return new LoadSchedule(format.name().toLowerCase(Locale.ROOT) + " trace " + source + ": " + shaping.describe(),
                shaping.apply(all));
    }

    private static String describeCaps(WorkloadShaping caps) {
        StringBuilder text = new StringBuilder();
        if (caps.maxRequests() > 0) {
            text.append(", at most ").append(caps.maxRequests()).append(" requests");
        }
        if (caps.maxPromptTokens() > 0) {
            text.append(", prompts cut to ").append(caps.maxPromptTokens()).append(" tokens");
        }
        if (caps.maxOutputTokens() > 0) {
            text.append(", outputs capped at ").append(caps.maxOutputTokens()).append(" tokens");
        }
        return text.toString();
    }
}
