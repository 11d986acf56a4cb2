package io.pdgateway.core;

import io.pdgateway.core.config.ModelConfigParser;
import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Fluent test pods: {@code pod("p1").prefill("rs1").bucket(0, 2048).build()}. */
public final class PodBuilder {
    private final String name;
    private String namespace = "default";
    private String model = "m";
    private String engine = "vllm";
    private PodRole role = PodRole.OTHER;
    private String roleset;
    private String config;

    private PodBuilder(String name) {
        this.name = name;
    }

    public static PodBuilder pod(String name) {
        return new PodBuilder(name);
    }

    /** Prefill pods, each in a roleset of its own named after it ("rs-p1"): the candidates of a prefill scorer. */
    public static List<Pod> prefills(String... names) {
        List<Pod> pods = new ArrayList<>();
        for (String name : names) {
            pods.add(pod(name).prefill("rs-" + name).build());
        }
        return pods;
    }

    /** Decode pods, each in a roleset of its own named after it ("rs-d1"): the candidates of a decode scorer. */
    public static List<Pod> decodes(String... names) {
        List<Pod> pods = new ArrayList<>();
        for (String name : names) {
            pods.add(pod(name).decode("rs-" + name).build());
        }
        return pods;
    }

    /** Pods that are neither prefill nor decode: what a non-PD strategy picks among. */
    public static List<Pod> plain(String... names) {
        List<Pod> pods = new ArrayList<>();
        for (String name : names) {
            pods.add(pod(name).build());
        }
        return pods;
    }

    public PodBuilder namespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    public PodBuilder model(String model) {
        this.model = model;
        return this;
    }

    public PodBuilder engine(String engine) {
        this.engine = engine;
        return this;
    }

    public PodBuilder prefill(String roleset) {
        this.role = PodRole.PREFILL;
        this.roleset = roleset;
        return this;
    }

    public PodBuilder decode(String roleset) {
        this.role = PodRole.DECODE;
        this.roleset = roleset;
        return this;
    }

    /** A standard pod: combined:true with the given range (max 0 = unlimited). */
    public PodBuilder standard(int min, int max) {
        this.role = PodRole.OTHER;
        this.config = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":{\"combined\":true,"
                + "\"promptLenBucketMinLength\":" + min + ",\"promptLenBucketMaxLength\":" + max + "}}}}";
        return this;
    }

    public PodBuilder bucket(int min, int max) {
        this.config = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":{"
                + "\"promptLenBucketMinLength\":" + min + ",\"promptLenBucketMaxLength\":" + max + "}}}}";
        return this;
    }

    public PodBuilder config(String json) {
        this.config = json;
        return this;
    }

    public Pod build() {
        ModelConfig parsed = config == null ? null : ModelConfigParser.parse(config).config();
        return new Pod(namespace, name, model, "10.0.0." + Math.abs(name.hashCode() % 250), 8000, 8000, engine, role,
                roleset, null, 8998, parsed, Map.of());
    }
}
