package io.pdgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.api.ChatApi;
import io.pdgateway.sim.api.CompletionApi;
import io.pdgateway.sim.api.CompletionExchange;
import io.pdgateway.sim.api.CompletionsEndpoint;
import io.pdgateway.sim.api.EnginePersonality;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.RouteTable;
import io.pdgateway.sim.api.TextCompletionApi;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verticle behind a {@link SimPod}: its own event-loop context runs the HTTP server, the engine loop and
 * every timer of the pod, so a pod needs no locks and undeploying it stops everything it started.
 */
final class SimPodServer extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(SimPod.class);
    /** Side-channel connections one pod keeps per peer; KV fetches are short, a few suffice. */
    private static final int SIDE_CHANNEL_POOL_SIZE = 16;
    /**
     * An idle side-channel connection closes after this, as the gateway's pod connections do after 4 s: a prefill pod's
     * open connections then settle to what its clients hold (Vert.x's default, 60 s, kept a decode pod's burst of
     * fetch connections open at the prefill pod for a minute, which a leak check there took for the gateway's).
     */
    private static final int SIDE_CHANNEL_KEEP_ALIVE_SECONDS = 2;

    private final SimConfig config;
    private PodContext pod;
    private HttpServer server;
    private HttpClient client;

    SimPodServer(SimConfig config) {
        this.config = config;
    }

    PodContext pod() {
        return pod;
    }

    @Override
    public Future<?> start() {
        EnginePersonality personality = EngineRegistry.create(config.engine());
        client = vertx.createHttpClient(
                new HttpClientOptions().setConnectTimeout(PodContext.SIDE_CHANNEL_CONNECT_TIMEOUT_MILLIS)
                        .setKeepAliveTimeout(SIDE_CHANNEL_KEEP_ALIVE_SECONDS),
                new PoolOptions().setHttp1MaxSize(SIDE_CHANNEL_POOL_SIZE));
        pod = new PodContext(vertx, context, config, personality, client);
        RouteTable routes = new RouteTable();
        CompletionsEndpoint completions = new CompletionsEndpoint(pod);
        java.util.List<CompletionApi> apis = new java.util.ArrayList<>(java.util.List.of(new ChatApi(),
                new TextCompletionApi()));
        apis.addAll(personality.nativeApis());
        for (CompletionApi api : apis) {
            for (HttpMethod method : api.methods()) {
                routes.add(method, api.path(), (request, body) -> completions.handle(request, body, api));
            }
        }
        routes.add(HttpMethod.GET, "/health", (request, body) -> request.response().end());
        routes.add(HttpMethod.GET, "/v1/models", (request, body) -> request.response()
                .putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE).end(JsonCodec.write(models())));
        personality.attach(pod, routes);
        server = vertx.createHttpServer().requestHandler(request -> receive(request, routes))
                .connectionHandler(connection -> {
                    pod.openConnections().incrementAndGet();
                    connection.closeHandler(v -> pod.openConnections().decrementAndGet());
                });
        return server.listen(config.port(), config.host()).compose(listening -> {
            pod.bound(listening.actualPort());
            return personality.start();
        }).onSuccess(started -> LOG.info(
                "{} sim pod started: role={} address={}:{} model={} engine_id={} bootstrap_port={} time_scale={}",
                config.engine(), config.role().label(), config.host(), pod.port(), config.modelName(), pod.engineId(),
                pod.bootstrapPort(), config.timeScale()));
    }

    @Override
    public Future<?> stop() {
        pod.markClosing();
        pod.loop().stop();
        if (pod.kvEvents() != null) {
            pod.kvEvents().close();
        }
        return pod.personality().stop().eventually(() -> server.close()).eventually(() -> client.close());
    }

    private void receive(HttpServerRequest request, RouteTable routes) {
        request.body().onSuccess(buffer -> {
            String body = buffer.toString(StandardCharsets.UTF_8);
            pod.recorder().record(request, body);
            routes.dispatch(request, body);
        }); // a body that never completes means the connection died: nothing to answer
    }

    private ObjectNode models() {
        ObjectNode list = JsonCodec.object();
        list.put("object", "list");
        ObjectNode model = list.putArray("data").addObject();
        model.put("id", config.modelName());
        model.put("object", "model");
        model.put("created", System.currentTimeMillis() / 1000);
        model.put("owned_by", config.engine());
        model.put("root", config.modelName());
        model.putNull("parent");
        model.put("max_model_len", config.timing().maxModelLen());
        model.putArray("permission");
        return list;
    }
}
