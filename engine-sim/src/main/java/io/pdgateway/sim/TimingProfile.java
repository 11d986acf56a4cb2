package io.pdgateway.sim;

import java.util.List;
import java.util.Locale;

/**
 * The engine timing model of shared/reference/engine-timing.md §7 as pure functions, with its coefficients.
 *
 * <pre>
 *   prefill (t new tokens after p cached ones) = a + b·t + 2c·t·(p + t/2)
 *   decode step (B sequences, ΣC context tokens) = d + e·B + f·ΣC
 *   KV transfer (n prompt tokens)               = s + n·kvBytesPerToken / bandwidth
 * </pre>
 * All times are milliseconds of modelled engine time; {@link SimConfig#timeScale()} maps them to wall time.
 *
 * @param name                        profile name, as accepted by {@link #byName(String)}
 * @param prefillFixedMillis          a: fixed prefill/TTFT cost per request
 * @param prefillPerTokenMillis       b: per new prompt token
 * @param prefillQuadraticMillis      c: per prompt token² (the attention term; the formula uses 2c)
 * @param decodeStepFloorMillis       d: floor of one engine step (weights read once)
 * @param decodePerSequenceMillis     e: per sequence in a decode step
 * @param decodePerContextTokenMillis f: per resident context token in a decode step
 * @param kvBytesPerToken             KV cache bytes per token (all layers, K and V)
 * @param kvCapacityTokens            KV cache capacity of the pod in tokens
 * @param maxNumSeqs                  most sequences running at once (vLLM {@code max_num_seqs})
 * @param tokenBudget                 most tokens scheduled in one step (vLLM {@code max_num_batched_tokens})
 * @param blockSizeTokens             KV block size: prefix-cache granularity and KV block ids
 * @param maxModelLen                 longest prompt + completion accepted
 * @param transferSetupMillis         s: fixed cost of one P→D KV transfer
 * @param transferBytesPerSecond      effective P→D KV transfer bandwidth
 */
public record TimingProfile(
        String name,
        double prefillFixedMillis,
        double prefillPerTokenMillis,
        double prefillQuadraticMillis,
        double decodeStepFloorMillis,
        double decodePerSequenceMillis,
        double decodePerContextTokenMillis,
        long kvBytesPerToken,
        int kvCapacityTokens,
        int maxNumSeqs,
        int tokenBudget,
        int blockSizeTokens,
        int maxModelLen,
        double transferSetupMillis,
        double transferBytesPerSecond) {

    /** Name of {@link #llama3_8b_h100()}. */
    public static final String LLAMA3_8B_H100 = "llama3-8b-h100";
    /** Name of {@link #llama3_70b_tp4_h100()}. */
    public static final String LLAMA3_70B_TP4_H100 = "llama3-70b-tp4-h100";

    public TimingProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("timing profile needs a name");
        }
        requireNonNegative("a (prefillFixedMillis)", prefillFixedMillis);
        requireNonNegative("b (prefillPerTokenMillis)", prefillPerTokenMillis);
        requireNonNegative("c (prefillQuadraticMillis)", prefillQuadraticMillis);
        requireNonNegative("d (decodeStepFloorMillis)", decodeStepFloorMillis);
        requireNonNegative("e (decodePerSequenceMillis)", decodePerSequenceMillis);
        requireNonNegative("f (decodePerContextTokenMillis)", decodePerContextTokenMillis);
        requireNonNegative("s (transferSetupMillis)", transferSetupMillis);
        if (prefillFixedMillis < decodeStepFloorMillis) {
            // The engine charges a − d outside the GPU step (engine-timing.md §7.1), so a ≥ d.
            throw new IllegalArgumentException("a (" + prefillFixedMillis + ") must be >= d (" + decodeStepFloorMillis + ")");
        }
        if (kvBytesPerToken <= 0 || kvCapacityTokens <= 0 || maxNumSeqs <= 0 || tokenBudget <= 0
                || blockSizeTokens <= 0 || maxModelLen <= 0 || !(transferBytesPerSecond > 0)) {
            throw new IllegalArgumentException("timing profile '" + name + "': capacities and bandwidth must be > 0");
        }
    }

    /**
     * Llama-3-8B on one H100 SXM with vLLM V1, BF16: engine-timing.md §7.2 (left column) and §9.
     * KV transfer over one 400G RDMA NIC (NIXL/Mooncake), the §7.2 "KV transfer, RDMA" row.
     */
    public static TimingProfile llama3_8b_h100() {
        return new TimingProfile(LLAMA3_8B_H100,
                20.0,        // a: §7.2/§7.3 "a (8B)": BLIS α0 + step costs ≈ 17 ms, AIC dispatch 25.6 ms → 20 ms
                0.021,       // b: §7.3 "b (8B)": AIC GEMM slope 0.0176 + element-wise kernels → 0.021 ms/token
                4.0e-7,      // c: §1.1 kernel fit and §7.3 "c (8B)": 4.0e-7 ms/token²
                7.2,         // d: §7.3 "d (8B)": kernel floor 6.05 ms + element-wise + sampler ≈ 7.2 ms
                0.012,       // e: §7.3 "e (8B)": kernel fit 0.0079 + BLIS per-request 0.0044 → 0.012 ms/sequence
                4.4e-5,      // f: §2.2: 131,072 B/token / 2.95 TB/s decode-attention bandwidth = 44 ns/token
                131_072L,    // §3.1: 32 layers × 8 kv heads × 128 head_dim × 2 (K,V) × 2 bytes = 128 KiB
                434_000,     // §3.2: 53.0 GiB at gpu_memory_utilization 0.92 (vLLM's current default) → 434k tokens
                1024,        // §3.3: vLLM V1 max_num_seqs default on ≥70 GiB GPUs (H100)
                8192,        // §3.3: vLLM V1 max_num_batched_tokens default for the OpenAI server on H100
                16,          // §3.3: vLLM CacheConfig.DEFAULT_BLOCK_SIZE = 16 tokens
                131_072,     // Llama-3.1-8B max_position_embeddings (same shapes as Llama-3-8B, §3.1)
                1.0,         // s: §7.2 "KV transfer, RDMA": 1 ms (between Mooncake's 0.57 ms and 1.8 ms fits, §7.3)
                25.0e9);     // §7.2 "KV transfer, RDMA": 25 GB/s on one 400G NIC (8B TP1)
    }

    /**
     * Llama-3-70B on four H100 SXM (TP4) with vLLM V1, BF16: engine-timing.md §7.2 (right column) and §9.
     * KV transfer over four RDMA NICs, the §7.2 "KV transfer, RDMA" row.
     */
    public static TimingProfile llama3_70b_tp4_h100() {
        return new TimingProfile(LLAMA3_70B_TP4_H100,
                50.0,        // a: §7.3 "70B TP4": AIC correction 64 ms, Splitwise 49 ms, llm-d-sim 70–110 ms → 50 ms
                0.060,       // b: §7.3 "70B TP4": kernel fit 0.0546 × 1.1 element-wise → 0.060 ms/token
                6.6e-7,      // c: §1.1 kernel fit (70B TP4): 6.6e-7 ms/token²
                18.0,        // d: §7.3 "70B TP4": 14.6 + element-wise and CPU; vLLM CI ≈ 19.4; BLIS ≈ 17.3 → 18 ms
                0.030,       // e: §7.2: 0.030 ms/sequence (kernel fit 0.025 + per-request overhead)
                2.9e-5,      // f: §2.2: 81,920 B/token per GPU / 2.85 TB/s = 29 ns/token
                327_680L,    // §3.1: 80 layers × 8 kv heads × 128 × 2 × 2 bytes = 320 KiB (80 KiB per GPU at TP4)
                454_000,     // §3.2: Llama-3-70B TP4 at gpu_memory_utilization 0.92 → 454k tokens
                1024,        // §3.3: vLLM V1 max_num_seqs default on H100
                8192,        // §3.3: vLLM V1 max_num_batched_tokens default for the OpenAI server on H100
                16,          // §3.3: vLLM CacheConfig.DEFAULT_BLOCK_SIZE = 16 tokens
                131_072,     // Llama-3.1-70B max_position_embeddings (same shapes as Llama-3-70B, §3.1)
                1.0,         // s: §7.2 "KV transfer, RDMA": 1 ms
                100.0e9);    // §7.2 "KV transfer, RDMA": 100 GB/s (4 GPUs × one NIC each)
    }

    /** The named profiles, for the CLI: {@value #LLAMA3_8B_H100} (default) and {@value #LLAMA3_70B_TP4_H100}. */
    public static TimingProfile byName(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (key) {
            case LLAMA3_8B_H100 -> llama3_8b_h100();
            case LLAMA3_70B_TP4_H100 -> llama3_70b_tp4_h100();
            default -> throw new IllegalArgumentException(
                    "unknown timing profile '" + name + "', supported: " + names());
        };
    }

    /** The names {@link #byName(String)} accepts. */
    public static List<String> names() {
        return List.of(LLAMA3_8B_H100, LLAMA3_70B_TP4_H100);
    }

    /** Engine time of computing {@code newTokens} prompt tokens on top of {@code cachedTokens} (§7.1). */
    public double prefillMillis(int newTokens, int cachedTokens) {
        return prefillFixedMillis + prefillChunkMillis(newTokens, cachedTokens);
    }

    /**
     * The GPU part of a prefill chunk, without the fixed cost a: b·n + 2c·n·(p + n/2). A mixed step adds this
     * for each chunk it carries (§7.1 "Mixed step").
     */
    public double prefillChunkMillis(int newTokens, int cachedTokens) {
        double n = newTokens;
        return prefillPerTokenMillis * n + 2.0 * prefillQuadraticMillis * n * (cachedTokens + n / 2.0);
    }

    /** One decode step for {@code batch} sequences holding {@code totalContext} tokens in all (§7.1). */
    public double decodeStepMillis(int batch, long totalContext) {
        return decodeStepFloorMillis + decodePerSequenceMillis * batch + decodePerContextTokenMillis * totalContext;
    }

    /** Moving the KV of {@code tokens} prompt tokens from a prefill pod to a decode pod (§7.1, §4.1 point 1). */
    public double kvTransferMillis(int tokens) {
        return transferSetupMillis + 1000.0 * tokens * (double) kvBytesPerToken / transferBytesPerSecond;
    }

    /** A copy with another KV capacity, e.g. to make a test pod queue on KV. */
    public TimingProfile withKvCapacityTokens(int tokens) {
        return new TimingProfile(name, prefillFixedMillis, prefillPerTokenMillis, prefillQuadraticMillis,
                decodeStepFloorMillis, decodePerSequenceMillis, decodePerContextTokenMillis, kvBytesPerToken,
                tokens, maxNumSeqs, tokenBudget, blockSizeTokens, maxModelLen, transferSetupMillis,
                transferBytesPerSecond);
    }

    /** A copy with another {@code max_num_seqs}, e.g. to make a test pod queue on sequences. */
    public TimingProfile withMaxNumSeqs(int seqs) {
        return new TimingProfile(name, prefillFixedMillis, prefillPerTokenMillis, prefillQuadraticMillis,
                decodeStepFloorMillis, decodePerSequenceMillis, decodePerContextTokenMillis, kvBytesPerToken,
                kvCapacityTokens, seqs, tokenBudget, blockSizeTokens, maxModelLen, transferSetupMillis,
                transferBytesPerSecond);
    }

    /** A copy with another KV link, e.g. §7.2's NVLink (0.3 ms, 150 GB/s) or TCP fallback (5 ms, 2 GB/s). */
    public TimingProfile withTransfer(double setupMillis, double bytesPerSecond) {
        return new TimingProfile(name, prefillFixedMillis, prefillPerTokenMillis, prefillQuadraticMillis,
                decodeStepFloorMillis, decodePerSequenceMillis, decodePerContextTokenMillis, kvBytesPerToken,
                kvCapacityTokens, maxNumSeqs, tokenBudget, blockSizeTokens, maxModelLen, setupMillis,
                bytesPerSecond);
    }

    private static void requireNonNegative(String what, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a finite value >= 0, got " + value);
        }
    }
}
