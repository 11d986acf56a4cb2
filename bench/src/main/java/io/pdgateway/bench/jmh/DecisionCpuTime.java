package io.pdgateway.bench.jmh;

import com.sun.management.ThreadMXBean;
import io.pdgateway.core.session.PromptFeatures;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU time of one decision, {@link RoutingDecisionBenchmark}'s exactly (same model, load and prompts), read from
 * the thread's CPU clock around each decision. On a machine others are using, JMH's wall-clock samples include the time
 * the benchmark thread waited for a core, which can dwarf a decision; CPU time does not (cache misses caused by the
 * neighbours still count). A companion to JMH, not a replacement: run both and say which is which. Its last column is
 * the bytes the thread allocated per measured decision, JMH's {@code gc.alloc.rate.norm} without a JMH run.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.pdgateway.bench.jmh.DecisionCpuTime [pods=512,4096]
 * [policies=a/b,...] [promptTokens=1000,8000] [decisions=20000] [warmup=20000] [turns=new|repeat]}: by default every
 * decision is a new turn of the conversation ({@link BenchModel#newTurns}, rewritten outside the timed call), with
 * {@code turns=repeat} the same prompt each time.
 */
public final class DecisionCpuTime {
    private DecisionCpuTime() {}

    public static void main(String[] args) {
        Map<String, String> options = new HashMap<>(Map.of("pods", "512,4096", "policies",
                "prefix_cache/load_balancing,least_request/least_request,conductor/conductor,token_load/token_load,"
                        + "hybrid_cache_load/token_load,predicted_ttft/token_load",
                "promptTokens", "1000,8000", "decisions", "20000", "warmup", "20000", "turns", "new"));
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            options.put(kv[0], kv[1]);
        }
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        boolean newTurns = !options.get("turns").equals("repeat");
        System.out.println(newTurns ? "every decision a new turn" : "one prompt repeated");
        System.out.printf(Locale.ROOT, "%5s %-30s %6s %9s %9s %9s %9s %9s %10s%n", "pods", "policies", "prompt",
                "mean µs", "p50 µs", "p90 µs", "p99 µs", "p99.9 µs", "B/decision");
        for (String pods : options.get("pods").split(",")) {
            for (String policies : options.get("policies").split(",")) {
                for (String prompt : options.get("promptTokens").split(",")) {
                    int decisions = Integer.parseInt(options.get("decisions"));
                    long[] cpu = new long[decisions + 1];
                    run(threads, Integer.parseInt(pods), policies, Integer.parseInt(prompt),
                            Integer.parseInt(options.get("warmup")), newTurns, cpu);
                    long allocated = cpu[decisions];
                    cpu = Arrays.copyOf(cpu, decisions);
                    Arrays.sort(cpu);
                    System.out.printf(Locale.ROOT, "%5s %-30s %6s %9.1f %9.1f %9.1f %9.1f %9.1f %10d%n", pods,
                            policies, prompt, Arrays.stream(cpu).average().orElse(0) / 1e3, cpu[cpu.length / 2] / 1e3,
                            cpu[(int) (cpu.length * 0.9)] / 1e3, cpu[(int) (cpu.length * 0.99)] / 1e3,
                            cpu[(int) (cpu.length * 0.999)] / 1e3, allocated / decisions);
                }
            }
        }
    }

    /**
     * Fills {@code cpu[0..n-1]} with each decision's CPU nanoseconds and {@code cpu[n]} with the bytes the thread
     * allocated over all n (the thread's allocation counter, which counts what escape analysis left; with too short a
     * warm-up for C2 to compile the decision it counts more than a compiled decision allocates).
     */
    private static void run(ThreadMXBean threads, int pods, String policies, int promptTokens, int warmup,
            boolean newTurns, long[] cpu) {
        DecisionBatches model = new DecisionBatches(pods, policies, promptTokens, newTurns);
        for (int i = 0; i < warmup; i++) {
            model.decide(model.next());
        }
        int decisions = cpu.length - 1;
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < decisions; i++) {
            PromptFeatures request = model.next(); // rewritten in place: allocates nothing
            long start = threads.getCurrentThreadCpuTime();
            model.decide(request);
            cpu[i] = threads.getCurrentThreadCpuTime() - start;
        }
        cpu[decisions] = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    }
}
