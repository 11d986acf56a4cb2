package io.pdgateway.sim;

import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimMain;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.TimingProfile;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import io.pdgateway.sim.kvevents.KvEventsConfig;
import picocli.CommandLine.Option;

/** {@code sim}: one simulated engine pod, for trying a gateway setup without GPUs. */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run one simulated engine pod speaking the engine's real wire protocol.")
public final class SimCommand implements Callable<Integer> {
    @Option(names = "--engine", defaultValue = "vllm", description = "vllm, sglang or trtllm (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--role", required = true, description = "prefill, decode or combined.")
    String role;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Bind address (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8000", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--model", defaultValue = "my-model", description = "Served model (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--timing", defaultValue = TimingProfile.LLAMA3_8B_H100,
            description = "Timing profile: llama3-8b-h100 or llama3-70b-tp4-h100 (default: ${DEFAULT-VALUE}).")
    String timing;

    @Option(names = "--time-scale", defaultValue = "1.0",
            description = "Wall time per unit of modelled time; 0.1 runs ten times faster (default: ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--seed", defaultValue = "1", description = "Seed for text and fault draws.")
    long seed;

    @Option(names = "--error-rate", defaultValue = "0", description = "Share of requests answered with --error-status.")
    double errorRate;

    @Option(names = "--error-status", defaultValue = "500", description = "Status of injected errors.")
    int errorStatus;

    @Option(names = "--hang-before-headers", description = "Never answer.")
    boolean hangBeforeHeaders;

    @Option(names = "--hang-after-tokens", defaultValue = "-1", description = "Stop answering after N tokens.")
    int hangAfterTokens;

    @Option(names = "--drop-after-tokens", defaultValue = "-1", description = "Close the connection after N tokens.")
    int dropAfterTokens;

    @Option(names = "--kv-slowdown", defaultValue = "1.0", description = "Multiplier on KV transfer time.")
    double kvSlowdown;

    @Option(names = "--bootstrap-port", defaultValue = "8998",
            description = "SGLang prefill: bootstrap server port on --host (default: ${DEFAULT-VALUE}).")
    int bootstrapPort;

    @Option(names = "--trt-transceiver", defaultValue = "python",
            description = "TensorRT-LLM KV-cache transceiver: python (reports generation_first metadata) or cpp "
                    + "(default: ${DEFAULT-VALUE}).")
    String trtTransceiver;

    @Option(names = "--kv-events-config",
            description = "vLLM/SGLang: publish KV-cache events, in vLLM's JSON shape, e.g. "
                    + "'{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\",\"endpoint\":\"tcp://*:5557\","
                    + "\"replay_endpoint\":\"tcp://*:5558\"}'. Text is then tokenized with the bundled tokenizer.json, "
                    + "chat requests rendered first with the chat template of the bundled tokenizer_config.json.")
    String kvEventsConfig;

    @Option(names = "--tokenizer",
            description = "vLLM/SGLang: characters (four to a token, the default) or bundled (the bundled "
                    + "tokenizer.json, as --kv-events-config implies). Every pod of a model must tokenize alike: "
                    + "give decode pods --tokenizer bundled when their prefill pods publish KV events.")
    String tokenizer;

    @Override
    public Integer call() throws Exception {
        SimConfig config;
        try {
            FaultConfig faults = new FaultConfig(errorRate, errorStatus, hangBeforeHeaders, hangAfterTokens,
                    dropAfterTokens, kvSlowdown, false);
            if (!trtTransceiver.equals("python") && !trtTransceiver.equals("cpp")) {
                throw new IllegalArgumentException("--trt-transceiver must be python or cpp, got " + trtTransceiver);
            }
            config = SimConfig.builder().engine(engine).role(SimRole.parse(role))
                    .host(host).port(port).modelName(model).timing(TimingProfile.byName(timing))
                    .timeScale(timeScale).seed(seed).faults(faults).bootstrapPort(bootstrapPort)
                    .trtPythonTransceiver(trtTransceiver.equals("python"))
                    .kvEvents(kvEventsConfig == null ? KvEventsConfig.DISABLED : KvEventsConfig.parse(kvEventsConfig))
                    .bundledTokenizer(bundledTokenizer(tokenizer, kvEventsConfig != null))
                    .build();
        } catch (IllegalArgumentException e) {
            System.err.println("pd-gateway sim: " + e.getMessage());
            return 2;
        }
        return SimMain.run(config);
    }

    /** {@code --tokenizer}: whether text is tokenized with the bundled tokenizer. */
    static boolean bundledTokenizer(String choice, boolean publishesEvents) {
        if (choice == null) {
            return publishesEvents;
        }
        return switch (choice) {
            case "bundled" -> true;
            case "characters" -> {
                if (publishesEvents) {
                    throw new IllegalArgumentException("--tokenizer characters: a pod that publishes KV events "
                            + "tokenizes with the bundled tokenizer (its events carry the token ids)");
                }
                yield false;
            }
            default -> throw new IllegalArgumentException("--tokenizer must be characters or bundled, got " + choice);
        };
    }
}
