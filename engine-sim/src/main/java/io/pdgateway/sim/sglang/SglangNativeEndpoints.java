package io.pdgateway.sim.sglang;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.api.CompletionExchange;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.RouteTable;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * SGLang's native endpoints beside the OpenAI ones, which other routers read (sglang-router registers a worker from
 * {@code /get_server_info} and polls {@code /get_load}; health checks call {@code /health_generate}):
 * <ul>
 *   <li>{@code GET /get_server_info} and {@code /server_info} (its newer name): the server arguments (model and
 *       tokenizer path, served model name, host, port, TP and DP sizes, context length, running-request, total-token
 *       and prefill-token limits, page size, disaggregation mode and bootstrap port), the scheduler's
 *       {@code max_total_num_tokens} and {@code max_req_input_len}, {@code internal_states} (one entry per DP rank,
 *       its contents not modelled) and {@code version};</li>
 *   <li>{@code GET /get_model_info} and {@code /model_info}: model and tokenizer path, {@code is_generation},
 *       preferred sampling params, weight version, modality flags, model type and architectures;</li>
 *   <li>{@code GET /get_load}: one entry per DP rank, {@code dp_rank}, {@code num_reqs} (running + waiting),
 *       {@code num_waiting_reqs}, {@code num_tokens} (KV tokens in use);</li>
 *   <li>{@code GET /health_generate}: 200 with an empty body once a one-token generation would run; the pod's
 *       faults apply (hang before headers: no answer; the error rate: 503), and 503 while the pod shuts down;</li>
 *   <li>{@code GET|POST /flush_cache}: clears the prefix cache and answers 200, or 400 while requests are running or
 *       waiting, as SGLang refuses then.</li>
 * </ul>
 */
final class SglangNativeEndpoints {
    /** The SGLang release whose native API these answers follow; "+sim" marks them as the simulator's. */
    static final String VERSION = "0.5.4+sim";
    static final String FLUSHED = "Cache flushed.\nPlease check backend logs for more details. (When there are running "
            + "or waiting requests, the operation will not be performed.)\n";

    private final PodContext pod;

    SglangNativeEndpoints(PodContext pod) {
        this.pod = pod;
    }

    void register(RouteTable routes) {
        for (String path : new String[] {"/get_server_info", "/server_info"}) {
            routes.add(HttpMethod.GET, path, (request, body) -> json(request, serverInfo()));
        }
        for (String path : new String[] {"/get_model_info", "/model_info"}) {
            routes.add(HttpMethod.GET, path, (request, body) -> json(request, modelInfo()));
        }
        routes.add(HttpMethod.GET, "/get_load", (request, body) -> request.response()
                .putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE).end(JsonCodec.write(load())));
        routes.add(HttpMethod.GET, "/health_generate", (request, body) -> healthGenerate(request));
        routes.add(HttpMethod.GET, "/flush_cache", (request, body) -> flushCache(request));
        routes.add(HttpMethod.POST, "/flush_cache", (request, body) -> flushCache(request));
    }

    private static void json(HttpServerRequest request, ObjectNode body) {
        request.response().putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE).end(JsonCodec.write(body));
    }

    private ObjectNode serverInfo() {
        SimConfig config = pod.config();
        TimingProfile timing = config.timing();
        ObjectNode info = JsonCodec.object();
        info.put("model_path", config.modelName());
        info.put("tokenizer_path", config.modelName());
        info.put("served_model_name", config.modelName());
        info.put("host", config.host());
        info.put("port", pod.port());
        info.put("tp_size", 1);
        info.put("dp_size", 1);
        info.put("context_length", timing.maxModelLen());
        info.put("max_running_requests", timing.maxNumSeqs());
        info.put("max_total_tokens", timing.kvCapacityTokens());
        info.put("max_prefill_tokens", timing.tokenBudget());
        info.put("chunked_prefill_size", timing.tokenBudget());
        info.put("page_size", timing.blockSizeTokens());
        info.put("disaggregation_mode", switch (config.role()) {
            case PREFILL -> "prefill";
            case DECODE -> "decode";
            case COMBINED -> "null";
        });
        info.put("disaggregation_bootstrap_port", config.role() == SimRole.PREFILL && pod.bootstrapPort() > 0
                ? pod.bootstrapPort() : config.bootstrapPort());
        // The scheduler's part of the answer.
        info.put("max_total_num_tokens", timing.kvCapacityTokens());
        info.put("max_req_input_len", Math.min(timing.maxModelLen(), timing.kvCapacityTokens()) - 1);
        info.putArray("internal_states").addObject();
        info.put("version", VERSION);
        return info;
    }

    private ObjectNode modelInfo() {
        ObjectNode info = JsonCodec.object();
        info.put("model_path", pod.config().modelName());
        info.put("tokenizer_path", pod.config().modelName());
        info.put("is_generation", true);
        info.putNull("preferred_sampling_params");
        info.put("weight_version", "default");
        info.put("has_image_understanding", false);
        info.put("has_audio_understanding", false);
        // The timing profiles model Llama 3.
        info.put("model_type", "llama");
        info.putArray("architectures").add("LlamaForCausalLM");
        return info;
    }

    private com.fasterxml.jackson.databind.node.ArrayNode load() {
        com.fasterxml.jackson.databind.node.ArrayNode ranks = JsonCodec.MAPPER.createArrayNode();
        ObjectNode rank = ranks.addObject();
        int waiting = pod.loop().waiting();
        rank.put("dp_rank", 0);
        rank.put("num_reqs", pod.loop().running() + waiting);
        rank.put("num_waiting_reqs", waiting);
        rank.put("num_tokens", pod.kvPool().usedTokens());
        return ranks;
    }

    private void healthGenerate(HttpServerRequest request) {
        FaultConfig faults = pod.faults();
        if (faults.hangBeforeHeaders()) {
            return; // a hung scheduler never answers the health request either
        }
        if (pod.closing() || pod.drawError(faults)) {
            request.response().setStatusCode(503).end();
            return;
        }
        request.response().setStatusCode(200).end();
    }

    private void flushCache(HttpServerRequest request) {
        int busy = pod.loop().running() + pod.loop().waiting();
        request.response().putHeader("content-type", "text/plain; charset=utf-8");
        if (busy > 0) {
            request.response().setStatusCode(400).end("Cache not flushed: " + busy
                    + " requests are running or waiting.\n");
            return;
        }
        pod.prefixCache().clear();
        request.response().setStatusCode(200).end(FLUSHED);
    }
}
