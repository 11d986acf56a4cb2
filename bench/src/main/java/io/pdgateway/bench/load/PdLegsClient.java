package io.pdgateway.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.engine.PrefillBodies;
import io.pdgateway.engine.TopLevelJson;
import io.pdgateway.engine.trtllm.TrtRequestIds;
import io.pdgateway.engine.trtllm.TrtServerInfo;
import io.pdgateway.engine.trtllm.TrtllmAdapter;
import io.pdgateway.engine.vllm.VllmAdapter;
import io.pdgateway.workload.run.ChunkGapSink;
import io.pdgateway.workload.run.RequestResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A client that runs a prefill/decode request's two legs itself, with no gateway: the reference the gateway's PD
 * mode is measured against. It does what a hand-written client of the engines' own protocols must do and nothing
 * more, so what the gateway adds on top of it is the gateway's cost:
 * <ul>
 *   <li>vLLM: the one-token prefill leg with {@code kv_transfer_params} asking the prefill pod to keep the KV, then,
 *       once it answers, the client's body with the returned {@code kv_transfer_params} spliced in, streamed from
 *       the decode pod;</li>
 *   <li>SGLang: both legs at once, each carrying the prefill pod's bootstrap host and port and one random bootstrap
 *       room; the prefill leg is the one-token rewrite, the decode leg the client's body, streamed;</li>
 *   <li>TensorRT-LLM ({@code context_first}): the one-token context leg with {@code disaggregated_params} of type
 *       {@code context_only} and a fresh global {@code disagg_request_id}, then the client's body with the answer's
 *       {@code disaggregated_params} as {@code generation_only}, streamed from the generation pod. The legs' bodies
 *       are the engine adapter's: they are the protocol, not the gateway's overhead.</li>
 *   <li>TensorRT-LLM ({@code generation_first}): the context worker's {@code /server_info} read once when the client
 *       opens, then both legs at once, the context leg and the generation leg naming that worker, one shared id and
 *       {@code schedule_style} 1, streamed from the generation pod.</li>
 * </ul>
 * The first leg's body is prepared before the clock starts (a client has it before it sends); what depends on the
 * prefill's answer is built on the clock, as it must be. Every latency is timed from the first leg's send.
 */
public final class PdLegsClient implements ChatTarget {
    /** The engines' PD protocols this client speaks. */
    public enum Protocol { VLLM, SGLANG, TRTLLM, TRTLLM_GENERATION_FIRST }

    /**
     * The machine id of this client's TensorRT-LLM request ids: not the gateway's (AIBRIX_TRT_MACHINE_ID, 0 unless
     * set), so the two, taking turns on the same pods, never send one id twice.
     */
    static final int TRT_MACHINE_ID = 1023;

    private final HttpClient prefillClient;
    private final StreamingChatClient decode;
    private final Endpoint prefill;
    private final Protocol protocol;
    private final String prefillHost;
    private final int bootstrapPort;
    private final SplittableRandom rooms = new SplittableRandom(7);
    private final TrtllmAdapter trtllm;
    /** The context worker's /server_info under generation_first (read once, as the gateway caches it), else null. */
    private final TrtServerInfo contextWorker;
    private final List<Context> contexts = new ArrayList<>();
    private final AtomicInteger nextContext = new AtomicInteger();
    /** The last client body prepared and its first-leg pieces: a run repeats one prompt, so it is built once. */
    private Buffer preparedFor;
    private byte[] prefillBody;

    private PdLegsClient(Vertx vertx, HttpClient prefillClient, StreamingChatClient decode, Endpoint prefill,
            Protocol protocol, int bootstrapPort, TrtServerInfo contextWorker) {
        this.prefillClient = prefillClient;
        this.trtllm = new TrtllmAdapter(protocol == Protocol.TRTLLM_GENERATION_FIRST,
                new TrtRequestIds(TRT_MACHINE_ID, InstantSource.system()));
        this.contextWorker = contextWorker;
        this.decode = decode;
        this.prefill = prefill;
        this.protocol = protocol;
        this.prefillHost = prefill.host();
        this.bootstrapPort = bootstrapPort;
        for (int i = 0; i < StreamingChatClient.CONTEXTS; i++) {
            // From a plain thread each call makes a new event-loop context, on the next event loop.
            contexts.add(vertx.getOrCreateContext());
        }
    }

    /**
     * @param bootstrapPort the SGLang prefill pod's bootstrap port (ignored for vLLM)
     */
    public static PdLegsClient open(Vertx vertx, Protocol protocol, Endpoint prefill, Endpoint decode,
            int bootstrapPort, String model) {
        HttpClient prefillClient = vertx.createHttpClient(
                new HttpClientOptions().setConnectTimeout(StreamingChatClient.CONNECT_TIMEOUT_MS),
                new PoolOptions().setHttp1MaxSize(StreamingChatClient.MAX_CONNECTIONS).setMaxWaitQueueSize(-1));
        TrtServerInfo contextWorker = protocol == Protocol.TRTLLM_GENERATION_FIRST
                ? serverInfo(prefillClient, prefill) : null;
        return new PdLegsClient(vertx, prefillClient, StreamingChatClient.open(vertx, decode, model, Map.of()), prefill,
                protocol, bootstrapPort, contextWorker);
    }

    /** The context worker's /server_info, read before the run (blocking: the client is being opened). */
    private static TrtServerInfo serverInfo(HttpClient client, Endpoint prefill) {
        Buffer body = client.request(HttpMethod.GET, prefill.port(), prefill.host(), TrtllmAdapter.SERVER_INFO_PATH)
                .compose(req -> req.send())
                .compose(res -> res.statusCode() == 200 ? res.body()
                        : Future.failedFuture(TrtllmAdapter.SERVER_INFO_PATH + " answered " + res.statusCode()))
                .await();
        try {
            return TrtServerInfo.parse(body.getBytes());
        } catch (EngineProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public Endpoint endpoint() {
        return decode.endpoint();
    }

    @Override
    public Buffer body(String prompt, int maxTokens) {
        return decode.body(prompt, maxTokens);
    }

    @Override
    public Future<Void> close() {
        return Future.join(prefillClient.close(), decode.close()).mapEmpty();
    }

    /**
     * A request's legs before the clock starts: the first leg's body, and the second's, either sent with the first
     * ({@code alongside}: SGLang, generation_first) or built from the first leg's answer ({@code afterPrefill}).
     */
    private record Legs(byte[] prefill, byte[] alongside, Function<Buffer, byte[]> afterPrefill) {}

    private Legs legs(Buffer body) {
        if (protocol == Protocol.TRTLLM || protocol == Protocol.TRTLLM_GENERATION_FIRST) {
            // A fresh request id each time: the context leg cannot be prepared once per body.
            LegRequest leg = new LegRequest(prefill.chatPath(), body.getBytes(), null, null, null, null, null,
                    contextWorker);
            LegPlan plan = planTrtllm(leg);
            return plan.schedule() == LegSchedule.CONCURRENT ? new Legs(plan.prefillBody(), plan.decodeBody(), null)
                    : new Legs(plan.prefillBody(), null, answer -> generationBody(leg, plan, answer));
        }
        byte[] prefillLeg;
        long room;
        synchronized (this) {
            prefillLeg = prepare(body);
            room = protocol == Protocol.SGLANG ? rooms.nextLong(Long.MAX_VALUE) : 0;
        }
        if (protocol == Protocol.SGLANG) {
            String bootstrap = bootstrapFields(room);
            return new Legs(splice(prefillLeg, bootstrap), splice(body.getBytes(), bootstrap), null);
        }
        return new Legs(prefillLeg, null,
                answer -> splice(body.getBytes(), ",\"kv_transfer_params\":" + kvTransferParams(answer)));
    }

    @Override
    public Future<RequestResult> send(Buffer body, int promptTokens, String sessionKey, long timeoutMillis,
            double startMillis, double lagMillis, ChunkGapSink gaps) {
        Legs legs = legs(body);
        long start = System.nanoTime();
        if (legs.alongside() != null) {
            sendPrefill(legs.prefill(), timeoutMillis);
            return decode.sendTimedFrom(start, Buffer.buffer(legs.alongside()), promptTokens, sessionKey,
                    timeoutMillis, startMillis, lagMillis, gaps);
        }
        Promise<RequestResult> result = Promise.promise();
        sendPrefill(legs.prefill(), timeoutMillis).onComplete(answer -> {
            if (answer.failed()) {
                result.complete(RequestResult.failure(startMillis, lagMillis, promptTokens,
                        "prefill: " + answer.cause().getMessage()));
                return;
            }
            byte[] decodeLeg;
            try {
                decodeLeg = legs.afterPrefill().apply(answer.result());
            } catch (RuntimeException e) {
                result.complete(RequestResult.failure(startMillis, lagMillis, promptTokens,
                        "prefill: " + e.getMessage()));
                return;
            }
            long left = Math.max(1, timeoutMillis - (System.nanoTime() - start) / 1_000_000);
            decode.sendTimedFrom(start, Buffer.buffer(decodeLeg), promptTokens, sessionKey, left, startMillis,
                    lagMillis, gaps).onComplete(result);
        });
        return result.future();
    }

    /** The first leg's body for this client body, built once per distinct body. */
    private byte[] prepare(Buffer body) {
        if (!body.equals(preparedFor)) {
            // The engines' own one-token rewrite and vLLM's KV request: what any client of these protocols sends.
            TopLevelJson leg;
            try {
                leg = PrefillBodies.oneToken(TopLevelJson.parse(body.getBytes()), true);
            } catch (EngineProtocolException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            prefillBody = (protocol == Protocol.VLLM
                    ? leg.setRaw("kv_transfer_params", VllmAdapter.remoteDecodeRequest()) : leg).toBytes();
            preparedFor = body.copy();
        }
        return prefillBody;
    }

    private LegPlan planTrtllm(LegRequest leg) {
        try {
            return trtllm.plan(leg);
        } catch (EngineProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The generation leg: the client's body with the context answer's disaggregated_params. */
    private byte[] generationBody(LegRequest leg, LegPlan plan, Buffer answer) {
        try {
            return trtllm.decodeBody(leg, plan, answer.getBytes());
        } catch (EngineProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private String bootstrapFields(long room) {
        return ",\"bootstrap_host\":\"" + prefillHost + "\",\"bootstrap_port\":" + bootstrapPort
                + ",\"bootstrap_room\":" + room;
    }

    /** The prefill pod's whole answer, or a failure naming its status and the start of its body. */
    private Future<Buffer> sendPrefill(byte[] body, long timeoutMillis) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(prefill.host())
                .setPort(prefill.port()).setURI(prefill.chatPath()).setIdleTimeout(timeoutMillis)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        Promise<Buffer> answer = Promise.promise();
        // Sent from an event-loop context, so the body handler is set on the thread that delivers the response.
        contexts.get(Math.floorMod(nextContext.getAndIncrement(), contexts.size())).runOnContext(v -> prefillClient
                .request(options)
                .compose(request -> request.send(Buffer.buffer(body)))
                .compose(response -> response.body().compose(bytes -> response.statusCode() == 200
                        ? Future.succeededFuture(bytes)
                        : Future.failedFuture("http " + response.statusCode() + ": " + abbreviate(bytes))))
                .onComplete(answer));
        return answer.future();
    }

    /** The prefill answer's {@code kv_transfer_params}, as JSON text ({@code null} when it returned none). */
    static String kvTransferParams(Buffer answer) {
        JsonNode kv = parse(answer.getBytes()).get("kv_transfer_params");
        return kv == null ? "null" : kv.toString();
    }

    /** A JSON object's bytes with {@code members} (",\"key\":value...") added before its closing brace. */
    static byte[] splice(byte[] object, String members) {
        int end = object.length - 1;
        while (end > 0 && object[end] != '}') {
            end--;
        }
        byte[] added = members.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[end + added.length + 1];
        System.arraycopy(object, 0, out, 0, end);
        System.arraycopy(added, 0, out, end, added.length);
        out[out.length - 1] = '}';
        return out;
    }

    private static ObjectNode parse(byte[] json) {
        try {
            return JsonBodies.parseObject(json);
        } catch (EngineProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static String abbreviate(Buffer body) {
        String text = body.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
        return text.length() <= 120 ? text : text.substring(0, 120) + "...";
    }
}
