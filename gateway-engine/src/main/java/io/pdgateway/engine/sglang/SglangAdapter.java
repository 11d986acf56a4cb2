package io.pdgateway.engine.sglang;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.AbortCall;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineMetricNames;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.engine.PrefillBodies;
import io.pdgateway.engine.TokenizeSupport;
import io.pdgateway.engine.TopLevelJson;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * SGLang disaggregation (reference §1.3): both legs at once, coordinated by the engines over the prefill pod's
 * bootstrap server. The decode body is the client's body with {@code bootstrap_host} (the prefill pod's IP),
 * {@code bootstrap_port} (its model.aibrix.ai/sglang-bootstrap-port annotation) and one random
 * {@code bootstrap_room} shared by both bodies; the prefill body is that plus the one-token rewrite. Every edit is a
 * top-level byte edit, so messages and tools reach both pods byte-identical.
 *
 * <p>One addition to upstream: a request id {@code rid} (SGLang's own field) goes into both bodies when the client
 * sent none, because {@code /abort_request} names the request to drop by it. A client's own {@code rid} is kept.
 */
public final class SglangAdapter implements EngineAdapter {
    public static final String ENGINE = "sglang";
    public static final String BOOTSTRAP_HOST = "bootstrap_host";
    public static final String BOOTSTRAP_PORT = "bootstrap_port";
    public static final String BOOTSTRAP_ROOM = "bootstrap_room";
    /** SGLang's request id field (GenerateReqInput.rid): what /abort_request names. */
    public static final String RID = "rid";
    /** SGLang's HTTP endpoint that drops an in-flight request by rid. */
    public static final String ABORT_PATH = "/abort_request";
    /** Reference §1.3: bootstrap_room is a random int63 in [0, 2^63-2]; nextLong(bound) excludes the bound. */
    static final long ROOM_BOUND = Long.MAX_VALUE;
    /**
     * Top-level keys the adapter writes or reads (reference §1.3's list, plus rid): given twice, which one an
     * engine honours is undefined, so the request is refused before any pod is chosen.
     */
    static final List<String> CONTROLLED_KEYS = List.of(BOOTSTRAP_HOST, BOOTSTRAP_PORT, BOOTSTRAP_ROOM, "max_tokens",
            "max_completion_tokens", "stream", "stream_options", "min_tokens", RID);

    private final RandomGenerator rooms;

    /** @param rooms draws bootstrap rooms; used under its own lock, so any generator will do */
    public SglangAdapter(RandomGenerator rooms) {
        this.rooms = rooms;
    }

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    public EngineMetricNames metrics() {
        return EngineMetricNames.SGLANG;
    }

    @Override
    public TokenizeSupport tokenize() {
        return TokenizeSupport.PROMPTS;
    }

    /** The body's top-level members, each controlled key at most once, and a usable rid if the client sent one. */
    @Override
    public TopLevelJson admit(TopLevelJson body) throws EngineProtocolException {
        body.requireUnique(CONTROLLED_KEYS);
        clientRid(body);
        return body;
    }

    @Override
    public LegPlan plan(LegRequest request) throws EngineProtocolException {
        // Edits accumulate on a TopLevelJson: a retry plans from a fresh copy of the one admission parsed.
        TopLevelJson client = request.admitted() instanceof TopLevelJson admitted ? admitted.copy()
                : admit(TopLevelJson.parse(request.raw()));
        long room = nextRoom();
        String rid = clientRid(client);
        if (rid == null) {
            // Unique per request even when clients reuse x-request-id values: SGLang refuses a rid already in flight.
            rid = request.requestId() + "-" + Long.toHexString(room);
            client.set(RID, rid);
        }
        client.set(BOOTSTRAP_HOST, request.prefill().ip())
                .set(BOOTSTRAP_PORT, request.prefill().sglangBootstrapPort())
                .set(BOOTSTRAP_ROOM, room);
        byte[] decode = client.toBytes();
        // The decode body's edits plus the one-token rewrite.
        byte[] prefill = PrefillBodies.oneToken(client, true).toBytes();
        AbortCall abort = new AbortCall(ABORT_PATH, abortBody(rid));
        return new LegPlan(LegSchedule.CONCURRENT, prefill, decode, abort, abort);
    }

    @Override
    public byte[] decodeBody(LegRequest request, LegPlan plan, byte[] prefillResponse) {
        // The decode leg never waits for the prefill's answer: the engines exchange the KV themselves.
        return plan.decodeBody();
    }

    private long nextRoom() {
        synchronized (rooms) {
            return rooms.nextLong(ROOM_BOUND);
        }
    }

    /** The client's rid when it sent one; a batch of rids (a list) cannot name this one request. */
    private static String clientRid(TopLevelJson body) throws EngineProtocolException {
        byte[] raw = body.rawValue(RID);
        if (raw == null) {
            return null;
        }
        try {
            JsonNode rid = JsonBodies.parse(raw);
            if (rid.isTextual() && !rid.asText().isBlank()) {
                return rid.asText();
            }
        } catch (EngineProtocolException e) {
            // fall through to the refusal
        }
        throw new EngineProtocolException("\"rid\" must be a non-empty string for a prefill/decode request");
    }

    private static byte[] abortBody(String rid) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put(RID, rid);
        return JsonBodies.write(body);
    }
}
