package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.Verdict;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The gateway's own Prometheus metrics, named as upstream AIBrix names them (reference §6) so existing dashboards
 * keep working, plus the JVM's and the process's ({@link RuntimeMetrics}). Micrometer adds the _total suffix to
 * counters itself, so counter names here omit it. Every metric carries HELP text.
 *
 * <p>No label carries raw client input (design.md §7). The one client-chosen value that reaches a label is the model
 * name, and only when a discovered pod serves it: any other name is counted as {@link #UNKNOWN_MODEL}, so the series
 * count is bounded by the pod set, whatever clients send. Every other label value is a constant of the code, an HTTP
 * status, or a pod's namespace, name or roleset from discovery.
 */
public final class GatewayMetrics implements AutoCloseable {
    /** The model label of a request for a model no discovered pod serves (design.md §7). */
    public static final String UNKNOWN_MODEL = "unknown";
    /** pd-gateway's own: routing decisions carried out, by route (Micrometer adds _total). */
    public static final String ROUTED = "pd_gateway_routed_requests";
    /** The route label of a prefill/decode pair. */
    public static final String ROUTE_PD = "pd";
    /** The route label of one standard (combined) pod serving the whole request. */
    public static final String ROUTE_STANDARD = "standard";
    /** pd-gateway's own (upstream has none): 1 while the pod source sees changes, 0 during an API server outage. */
    public static final String DISCOVERY_CONNECTED = "pd_gateway_discovery_connected";
    /** pd-gateway's own: routable pods in the current view. */
    public static final String DISCOVERY_PODS = "pd_gateway_discovery_pods";
    /** pd-gateway's own: 1 from SIGTERM until the process exits (readiness fails, in-flight requests finish). */
    public static final String DRAINING = "pd_gateway_draining";
    /** pd-gateway's own: requests refused before routing (Micrometer adds _total). */
    public static final String REJECTED = "pd_gateway_rejected_requests";
    /** pd-gateway's own: engine metric scrapes that failed (Micrometer adds _total). */
    public static final String SCRAPE_FAILURES = "pd_gateway_scrape_failures";
    /** pd-gateway's own: client connections the gateway closed for a timeout, by reason (Micrometer adds _total). */
    public static final String CLIENT_CONNECTIONS_CLOSED = "pd_gateway_client_connections_closed";
    /** pd-gateway's own: client connections open now. */
    public static final String CLIENT_CONNECTIONS = "pd_gateway_client_connections";
    public static final String HELD_BODY_BYTES = "pd_gateway_held_request_body_bytes";
    public static final String HELD_BODY_LIMIT = "pd_gateway_held_request_body_limit_bytes";
    /** pd-gateway's own: prefills retried elsewhere (Micrometer adds _total). */
    public static final String PREFILL_RETRIES = "pd_gateway_prefill_retries";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /**
     * The per-request meters (and the rejections a flood of bad requests counts), resolved once per label set: a
     * builder's register() sorts the tags and builds an id before its lookup, ten times a request. Bounded as the registry is (labels from the model and pod sets), and
     * nothing is ever removed from the registry, so an entry never goes stale.
     */
    private final Map<MeterKey, Meter> resolved = new ConcurrentHashMap<>();
    /** The five phase histograms of a model and route, resolved together. */
    private final Map<MeterKey, io.pdgateway.server.exchange.PhaseHistograms> phaseHistograms =
            new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger prefillOutstanding = new AtomicInteger();
    /** First, so that its meter filters see every meter registered after it. */
    private final RuntimeMetrics runtime = new RuntimeMetrics(registry);
    /** Until discovery says otherwise, no model is served: every model label reads {@link #UNKNOWN_MODEL}. */
    private volatile Predicate<String> servedModels = model -> false;

    public GatewayMetrics() {
        Gauge.builder("gateway_in_flight_requests", inFlight, AtomicInteger::get)
                .description("Requests the gateway is serving right now").register(registry);
        Gauge.builder("gateway_prefill_outstanding_requests", prefillOutstanding, AtomicInteger::get)
                .description("Prefill legs in flight").register(registry);
    }

    /**
     * Which model names may become a {@code model} label value: those a discovered pod serves right now. Any other
     * name a client sends is counted under {@link #UNKNOWN_MODEL}.
     */
    public void servedModels(Predicate<String> served) {
        this.servedModels = served;
    }

    /** The model label value for a client's model name: itself when a discovered pod serves it, else unknown. */
    public String modelLabel(String model) {
        return model != null && servedModels.test(model) ? model : UNKNOWN_MODEL;
    }

    /** The pod source's gauges: whether it is connected, and how many routable pods its current view holds. */
    public void discovery(BooleanSupplier connected, IntSupplier routablePods) {
        Gauge.builder(DISCOVERY_CONNECTED, () -> connected.getAsBoolean() ? 1 : 0)
                .description("1 while pod discovery sees changes (Kubernetes: every informer watching), else 0")
                .register(registry);
        Gauge.builder(DISCOVERY_PODS, routablePods::getAsInt).description("Routable pods in the current cluster view")
                .register(registry);
    }

    /** Exported as {@link #DRAINING}. */
    public void draining(BooleanSupplier draining) {
        Gauge.builder(DRAINING, () -> draining.getAsBoolean() ? 1 : 0)
                .description("1 while the gateway drains before exiting").register(registry);
    }

    /**
     * {@link #CLIENT_CONNECTIONS}, and {@link #CLIENT_CONNECTIONS_CLOSED} for each reason at zero, so that a dashboard
     * sees the series before the first close.
     */
    public void clientConnections(IntSupplier open, String... closeReasons) {
        Gauge.builder(CLIENT_CONNECTIONS, open::getAsInt).description("Client connections open now").register(registry);
        for (String reason : closeReasons) {
            closedCounter(reason);
        }
    }

    /** {@link #HELD_BODY_BYTES} and {@link #HELD_BODY_LIMIT}: the request bodies held now, and how many may be. */
    public void heldBodies(LongSupplier held, long limit) {
        Gauge.builder(HELD_BODY_BYTES, held::getAsLong)
                .description("Bytes of request bodies the gateway holds now, all requests together").register(registry);
        Gauge.builder(HELD_BODY_LIMIT, () -> limit).description("PD_GATEWAY_MAX_HELD_BODY_BYTES as applied: past it "
                + "a request gets 503 before its body is read").register(registry);
    }

    /** pd-gateway's own pd_gateway_client_connections_closed_total: a client connection closed for a timeout. */
    public void clientConnectionClosed(String reason) {
        closedCounter(reason).increment();
    }

    private Counter closedCounter(String reason) {
        return Counter.builder(CLIENT_CONNECTIONS_CLOSED)
                .description("Client connections the gateway closed while no request was in progress on them, by "
                        + "reason: header_timeout (no whole request head in time), idle_timeout (kept alive too long)")
                .tag("reason", reason).register(registry);
    }

    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * pd-gateway's own pd_gateway_rejected_requests_total: a request refused before it named a model or reached
     * routing (reason: unauthorized, body_too_large, body_timeout, held_bodies_full, invalid_body, invalid_http,
     * headers_too_large, uri_too_long, unsupported_media_type, cors_origin_not_allowed): a fixed set, never a client's
     * value.
     */
    public void rejected(String reason) {
        this.<Counter>resolve(new MeterKey(REJECTED, reason, null, null), () -> Counter.builder(REJECTED)
                .description("Requests refused before routing, by reason").tag("reason", reason).register(registry))
                .increment();
    }

    /** A meter's name and label values: the key of {@link #resolved}. */
    private record MeterKey(String name, String first, String second, String third) {}

    @SuppressWarnings("unchecked")
    private <M extends Meter> M resolve(MeterKey key, Supplier<M> register) {
        return (M) resolved.computeIfAbsent(key, k -> register.get());
    }

    public void requestStarted(String model) {
        inFlight.incrementAndGet();
        String label = modelLabel(model);
        this.<Counter>resolve(new MeterKey("gateway_request", label, null, null), () -> Counter
                .builder("gateway_request").description("Requests that reached routing, by model")
                .tag("model", label).register(registry)).increment();
    }

    public void requestEnded() {
        inFlight.decrementAndGet();
    }

    public void success(String model, String podName) {
        String label = modelLabel(model);
        this.<Counter>resolve(new MeterKey("gateway_request_model_success", label, podName, null), () -> Counter
                .builder("gateway_request_model_success")
                .description("Requests answered in full with a 2xx, by model and serving (decode or standard) pod")
                .tag("model", label).tag("pod_name", podName).register(registry)).increment();
    }

    /** A request that failed or was cancelled; status is a short reason (e.g. pd_prefill_fail, client_cancel). */
    public void failure(String model, String status, int statusCode, String podName) {
        Counter.builder("gateway_request_model_fail")
                .description("Requests that failed or were cancelled, by model, reason (status), HTTP status and pod "
                        + "(empty before one was chosen)")
                .tag("model", modelLabel(model)).tag("status", status).tag("status_code", Integer.toString(statusCode))
                .tag("pod_name", podName == null ? "" : podName).register(registry).increment();
    }

    public void prefillStarted() {
        prefillOutstanding.incrementAndGet();
    }

    public void prefillSucceeded() {
        prefillOutstanding.decrementAndGet();
        this.<Counter>resolve(new MeterKey("gateway_prefill_request_success", null, null, null), () -> Counter
                .builder("gateway_prefill_request_success").description("Prefill legs that answered 2xx")
                .tag("status", "pd-prefill-request-success")
                .tag("status_code", "200").register(registry)).increment();
    }

    /** Upstream's statuses: http_error/&lt;code&gt;, timeout/504, error/502, context_canceled/499. */
    public void prefillFailed(String status, int statusCode) {
        prefillOutstanding.decrementAndGet();
        String code = Integer.toString(statusCode);
        this.<Counter>resolve(new MeterKey("gateway_prefill_request_fail", status, code, null), () -> Counter
                .builder("gateway_prefill_request_fail")
                .description("Prefill legs that failed, timed out or were cancelled, by status and HTTP status")
                .tag("status", status).tag("status_code", code).register(registry)).increment();
    }

    /**
     * pd-gateway's own pd_gateway_prefill_retries_total: a prefill that failed transiently (status and status_code as
     * in gateway_prefill_request_fail_total) was tried again, on another prefill/decode pair ({@code to="pd_pair"})
     * or on a standard pod ({@code to="standard"}).
     */
    public void prefillRetried(String model, String status, int statusCode, boolean toPair) {
        Counter.builder(PREFILL_RETRIES).description("Prefills retried on other pods after a transient failure")
                .tag("model", modelLabel(model)).tag("status", status).tag("status_code", Integer.toString(statusCode))
                .tag("to", toPair ? "pd_pair" : "standard").register(registry).increment();
    }

    /**
     * pd-gateway's own pd_gateway_scrape_failures_total: a pod's Prometheus endpoint failed, answered non-200 or timed
     * out; routing then reads its metrics as absent once they age out.
     */
    public void scrapeFailed(Pod pod) {
        Counter.builder(SCRAPE_FAILURES).description("Engine metric scrapes that failed or timed out")
                .tag("namespace", pod.namespace()).tag("pod", pod.name()).register(registry).increment();
    }

    public void selected(Pod prefill, Pod decode) {
        selectedCounter("pd_selected_prefill_pod", "Times a prefill pod was chosen for a PD pair", prefill).increment();
        selectedCounter("pd_selected_decode_pod", "Times a decode pod was chosen for a PD pair", decode).increment();
    }

    private Counter selectedCounter(String name, String help, Pod pod) {
        return resolve(new MeterKey(name, pod.namespace(), pod.name(), pod.rolesetName()), () -> Counter.builder(name)
                .description(help).tag("namespace", pod.namespace()).tag("pod", pod.name())
                .tag("roleset", pod.rolesetName()).register(registry));
    }

    /**
     * pd-gateway's own pd_gateway_routed_requests_total: a routing decision the gateway carried out (a retried prefill
     * counts again), by model, route ({@link #ROUTE_PD} or {@link #ROUTE_STANDARD}) and whether it was the PD
     * strategy's fallback to a standard pod ({@code fallback="true"}).
     */
    public void routed(String model, RouteDecision decision) {
        String label = modelLabel(model);
        String route = route(decision);
        String fallback = Boolean.toString(decision.verdict() == Verdict.STANDARD_FALLBACK);
        this.<Counter>resolve(new MeterKey(ROUTED, label, route, fallback), () -> Counter.builder(ROUTED)
                .description("Routing decisions carried out (a retried prefill counts again), by route: pd (a "
                        + "prefill/decode pair) or standard (one standard pod); fallback=true when the pd strategy fell "
                        + "back to a standard pod")
                .tag("model", label).tag("route", route).tag("fallback", fallback)
                .register(registry)).increment();
    }

    /** The route label of a decision: {@link #ROUTE_PD} for a pair, {@link #ROUTE_STANDARD} for one pod. */
    public static String route(RouteDecision decision) {
        return decision.isPd() ? ROUTE_PD : ROUTE_STANDARD;
    }

    /**
     * Per-phase histograms of successful requests, labelled by model and route: pd_ttft_seconds (arrival to the first
     * byte of the answer), pd_prefill_duration_seconds, pd_kv_transfer_estimate_seconds (prefill answer to first decode
     * byte: the KV transfer plus the first decode step; sequential engines only), pd_decode_duration_seconds (first to
     * last byte) and pd_tpot_seconds (streams only: the mean gap between the answer's events after the first, one
     * event per output token).
     */
    public io.pdgateway.server.exchange.PhaseHistograms phases(String model, String route) {
        String label = modelLabel(model);
        return phaseHistograms.computeIfAbsent(new MeterKey("phases", label, route, null), k -> newPhases(label, route));
    }

    private io.pdgateway.server.exchange.PhaseHistograms newPhases(String label, String route) {
        return new io.pdgateway.server.exchange.PhaseHistograms(
                timer("pd_ttft_seconds", "Time to the first byte of the answer", label, route),
                timer("pd_prefill_duration_seconds", "Prefill leg duration", label, route),
                timer("pd_kv_transfer_estimate_seconds", "Prefill answer to first decode byte (KV transfer + first step)",
                        label, route),
                timer("pd_decode_duration_seconds", "First to last byte of the answer", label, route),
                timer("pd_tpot_seconds", "Time per output token of a streamed answer: the mean gap between its events "
                        + "after the first", label, route));
    }

    private Timer timer(String name, String help, String model, String route) {
        return Timer.builder(name).description(help).tag("model", model).tag("route", route)
                .publishPercentileHistogram().register(registry);
    }

    /** Time spent choosing pods (the cascade and the ledger charge), per model. */
    public void routingTime(String model, long nanos) {
        String label = modelLabel(model);
        this.<Timer>resolve(new MeterKey("pd_routing_duration_seconds", label, null, null), () -> Timer
                .builder("pd_routing_duration_seconds").description("Time to choose the pods of one request")
                .tag("model", label).publishPercentileHistogram().register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Unhooks the JVM binders that listen to the runtime (GC notifications); the registry itself needs no closing. */
    @Override
    public void close() {
        runtime.close();
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Prefill legs in flight (the gateway_prefill_outstanding_requests gauge). */
    public int prefillOutstanding() {
        return prefillOutstanding.get();
    }
}
