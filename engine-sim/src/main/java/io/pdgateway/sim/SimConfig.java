package io.pdgateway.sim;

import io.pdgateway.sim.kvevents.KvEventsConfig;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything one simulated pod needs. Build it with {@link #builder()}; every field has a default.
 *
 * @param engine           engine personality: {@code vllm}, {@code sglang} or {@code trtllm}
 * @param role             prefill, decode or combined
 * @param host             bind address; tests give each pod its own loopback address (127.0.0.2, 127.0.0.3, …)
 *                         so a request sent to the wrong pod fails instead of passing silently
 * @param port             bind port, 0 for an ephemeral one ({@link SimPod#port()} tells which)
 * @param modelName        the one model this pod serves
 * @param timeScale        wall time per unit of modelled engine time: 1.0 is real time, 0.01 runs 100× faster
 * @param timing           the timing model and capacities
 * @param seed             seeds generated text, request ids and injected error draws
 * @param faults           injected failures
 * @param defaultMaxTokens completion length when a request names neither max_tokens nor max_completion_tokens
 * @param bootstrapPort    SGLang prefill role: port of the bootstrap server decode pods fetch the KV through, on
 *                         {@code host}; 0 for an ephemeral one ({@link SimPod#bootstrapPort()} tells which)
 * @param trtPythonTransceiver TensorRT-LLM: the Python KV-cache transceiver, whose /server_info reports the
 *                         metadata generation_first needs; false is the C++ one, which reports none
 * @param kvEvents         {@code --kv-events-config}: vLLM and SGLang pods publish their prefix cache's changes as
 *                         KV-cache events and tokenize text with the bundled tokenizer ({@link KvEventsConfig})
 * @param bundledTokenizer {@code --tokenizer bundled}: tokenize text with the bundled tokenizer without publishing
 *                         events, as the decode pods of a model whose prefill pods publish them must (a decode pod
 *                         checks that the KV it fetched was computed for the prompt as it tokenizes it)
 */
public record SimConfig(
        String engine,
        SimRole role,
        String host,
        int port,
        String modelName,
        double timeScale,
        TimingProfile timing,
        long seed,
        FaultConfig faults,
        int defaultMaxTokens,
        int bootstrapPort,
        boolean trtPythonTransceiver,
        KvEventsConfig kvEvents,
        boolean bundledTokenizer) {

    /** The engine every pod simulates unless told otherwise. */
    public static final String DEFAULT_ENGINE = "vllm";
    /** Loopback: a simulated pod is reachable from this machine only unless asked otherwise. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** The model name of the design's examples. */
    public static final String DEFAULT_MODEL = "my-model";
    /**
     * Short completions by default so that simulated requests end quickly; real vLLM would default to the
     * rest of the context window.
     */
    public static final int DEFAULT_MAX_TOKENS = 16;
    /** Whether text is tokenized with the bundled tokenizer (publishing KV events, or told to), not counted. */
    public boolean tokenizes() {
        return bundledTokenizer || kvEvents.publishes();
    }

    /** SGLang's --disaggregation-bootstrap-port default, the same 8998 the spec's annotation defaults to. */
    public static final int DEFAULT_BOOTSTRAP_PORT = 8998;

    public SimConfig {
        Objects.requireNonNull(engine, "engine");
        engine = engine.trim().toLowerCase(Locale.ROOT);
        EngineRegistry.requireSupported(engine);
        Objects.requireNonNull(role, "role");
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be within 0..65535, got " + port);
        }
        if (modelName == null || modelName.isBlank()) {
            throw new IllegalArgumentException("modelName must not be blank");
        }
        if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
            throw new IllegalArgumentException("timeScale must be a finite value > 0, got " + timeScale);
        }
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(faults, "faults");
        if (defaultMaxTokens < 1) {
            throw new IllegalArgumentException("defaultMaxTokens must be >= 1, got " + defaultMaxTokens);
        }
        Objects.requireNonNull(kvEvents, "kvEvents");
        if (kvEvents.publishes() && engine.equals("trtllm")) {
            throw new IllegalArgumentException("--kv-events-config is simulated for vllm and sglang pods only");
        }
        if (bundledTokenizer && engine.equals("trtllm")) {
            throw new IllegalArgumentException("--tokenizer bundled is simulated for vllm and sglang pods only");
        }
        if (bootstrapPort < 0 || bootstrapPort > 65_535) {
            throw new IllegalArgumentException("bootstrapPort must be within 0..65535, got " + bootstrapPort);
        }
    }

    /** A builder holding every default: vllm, combined, 127.0.0.1, ephemeral port, my-model, real time. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder().engine(engine).role(role).host(host).port(port).modelName(modelName)
                .timeScale(timeScale).timing(timing).seed(seed).faults(faults).defaultMaxTokens(defaultMaxTokens)
                .bootstrapPort(bootstrapPort).trtPythonTransceiver(trtPythonTransceiver).kvEvents(kvEvents)
                .bundledTokenizer(bundledTokenizer);
    }

    /** Fluent construction of a {@link SimConfig}; validation happens in {@link #build()}. */
    public static final class Builder {
        private String engine = DEFAULT_ENGINE;
        private SimRole role = SimRole.COMBINED;
        private String host = DEFAULT_HOST;
        private int port;
        private String modelName = DEFAULT_MODEL;
        private double timeScale = 1.0;
        private TimingProfile timing = TimingProfile.llama3_8b_h100();
        private long seed;
        private FaultConfig faults = FaultConfig.none();
        private int defaultMaxTokens = DEFAULT_MAX_TOKENS;
        private int bootstrapPort = DEFAULT_BOOTSTRAP_PORT;
        private boolean trtPythonTransceiver = true;
        private KvEventsConfig kvEvents = KvEventsConfig.DISABLED;
        private boolean bundledTokenizer;

        private Builder() {
        }

        public Builder engine(String engine) {
            this.engine = engine;
            return this;
        }

        public Builder role(SimRole role) {
            this.role = role;
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder modelName(String modelName) {
            this.modelName = modelName;
            return this;
        }

        public Builder timeScale(double timeScale) {
            this.timeScale = timeScale;
            return this;
        }

        public Builder timing(TimingProfile timing) {
            this.timing = timing;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder faults(FaultConfig faults) {
            this.faults = faults;
            return this;
        }

        public Builder defaultMaxTokens(int defaultMaxTokens) {
            this.defaultMaxTokens = defaultMaxTokens;
            return this;
        }

        public Builder bootstrapPort(int bootstrapPort) {
            this.bootstrapPort = bootstrapPort;
            return this;
        }

        public Builder trtPythonTransceiver(boolean trtPythonTransceiver) {
            this.trtPythonTransceiver = trtPythonTransceiver;
            return this;
        }

        public Builder kvEvents(KvEventsConfig kvEvents) {
            this.kvEvents = kvEvents;
            return this;
        }

        public Builder bundledTokenizer(boolean bundledTokenizer) {
            this.bundledTokenizer = bundledTokenizer;
            return this;
        }

        public SimConfig build() {
            return new SimConfig(engine, role, host, port, modelName, timeScale, timing, seed, faults,
                    defaultMaxTokens, bootstrapPort, trtPythonTransceiver, kvEvents, bundledTokenizer);
        }
    }
}
