package io.pdgateway.routingsim.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Turns a {@code --trace} value into a workload: {@code mooncake} and {@code azure} name the shared traces (looked up
 * in the traces directory), {@code synthetic[:key=value,...]} a seeded mix, {@code prefix-heavy} and
 * {@code shared-system} two named mixes, anything else a file path whose extension picks the reader ({@code .jsonl}:
 * Mooncake, {@code .csv}: Azure).
 */
public final class WorkloadSource {
    public static final String MOONCAKE = "mooncake";
    public static final String AZURE = "azure";
    public static final String SYNTHETIC = "synthetic";
    /**
     * A prefix-heavy chat service (issue 15): 32 system prompts of 4k tokens, 8-turn sessions, 30 % long prompts, 24
     * requests a second for ten minutes.
     */
    public static final String PREFIX_HEAVY = "prefix-heavy";
    static final String PREFIX_HEAVY_MIX = "synthetic:rate=24,seconds=600,systems=32,system=4096,turns=8,think=30,long=0.3";
    /**
     * One system prompt shared by every request, single turns, 200 requests a second for five minutes: what draws a
     * prefix-aware policy onto the few pods that served the first prompts (for clusters/thousand.yaml).
     */
    public static final String SHARED_SYSTEM = "shared-system";
    static final String SHARED_SYSTEM_MIX = "synthetic:rate=200,seconds=300,systems=1,system=2048,user=512,output=256,"
            + "turns=1,long=0";
    /** shared/traces/README.md file names. */
    static final String MOONCAKE_FILE = "mooncake-conversation.jsonl";
    static final String AZURE_FILE = "azure-2023-conv.csv";

    private WorkloadSource() {}

    public static Workload load(String spec, Path tracesDir, long seed, int blockSize) throws IOException {
        String key = spec.trim().toLowerCase(Locale.ROOT);
        if (key.equals(MOONCAKE)) {
            return TraceWorkloads.mooncake(existing(tracesDir.resolve(MOONCAKE_FILE)), blockSize);
        }
        if (key.equals(AZURE)) {
            return TraceWorkloads.azure(existing(tracesDir.resolve(AZURE_FILE)), blockSize);
        }
        if (key.equals(PREFIX_HEAVY)) {
            return ChatServiceWorkload.generate(ChatServiceMix.parse(PREFIX_HEAVY_MIX), seed, blockSize);
        }
        if (key.equals(SHARED_SYSTEM)) {
            return ChatServiceWorkload.generate(ChatServiceMix.parse(SHARED_SYSTEM_MIX), seed, blockSize);
        }
        if (key.equals(SYNTHETIC) || key.startsWith(SYNTHETIC + ":")) {
            return ChatServiceWorkload.generate(ChatServiceMix.parse(spec.trim()), seed, blockSize);
        }
        Path file = existing(Path.of(spec));
        if (key.endsWith(".jsonl")) {
            return TraceWorkloads.mooncake(file, blockSize);
        }
        if (key.endsWith(".csv")) {
            return TraceWorkloads.azure(file, blockSize);
        }
        throw new IllegalArgumentException("--trace " + spec + ": expected mooncake, azure, prefix-heavy, "
                + "shared-system, synthetic[:...], or a .jsonl (Mooncake) or .csv (Azure) file");
    }

    private static Path existing(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("trace file " + file + " not found (set --traces-dir or ROUTING_SIM_TRACES)");
        }
        return file;
    }
}
