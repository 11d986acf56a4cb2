package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pdgateway.core.model.Pod;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The gateway's own Prometheus metrics, named as upstream AIBrix names them (reference §6) so existing dashboards
 * keep working. Micrometer adds the _total suffix to counters itself, so counter names here omit it.
 */
public final class GatewayMetrics {
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
    /** pd-gateway's own: prefills retried elsewhere (Micrometer adds _total). */
    public static final String PREFILL_RETRIES = "pd_gateway_prefill_retries";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger prefillOutstanding = new AtomicInteger();

    public GatewayMetrics() {
        Gauge.builder("gateway_in_flight_requests", inFlight, AtomicInteger::get)
                .description("Requests the gateway is serving right now").register(registry);
        Gauge.builder("gateway_prefill_outstanding_requests", prefillOutstanding, AtomicInteger::get)
                .description("Prefill legs in flight").register(registry);
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

    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * pd-gateway's own pd_gateway_rejected_requests_total: a request refused before it named a model or reached
     * routing (reason: unauthorized, body_too_large, body_timeout, invalid_body).
     */
    public void rejected(String reason) {
        Counter.builder(REJECTED).description("Requests refused before routing, by reason").tag("reason", reason)
                .register(registry).increment();
    }

    public void requestStarted(String model) {
        inFlight.incrementAndGet();
        Counter.builder("gateway_request").tag("model", model).register(registry).increment();
    }

    public void requestEnded() {
        inFlight.decrementAndGet();
    }

    public void success(String model, String podName) {
        Counter.builder("gateway_request_model_success").tag("model", model).tag("pod_name", podName)
                .register(registry).increment();
    }

    /** A request that failed or was cancelled; status is a short reason (e.g. pd_prefill_fail, client_cancel). */
    public void failure(String model, String status, int statusCode, String podName) {
        Counter.builder("gateway_request_model_fail").tag("model", model).tag("status", status)
                .tag("status_code", Integer.toString(statusCode)).tag("pod_name", podName == null ? "" : podName)
                .register(registry).increment();
    }

    public void prefillStarted() {
        prefillOutstanding.incrementAndGet();
    }

    public void prefillSucceeded() {
        prefillOutstanding.decrementAndGet();
        Counter.builder("gateway_prefill_request_success").tag("status", "pd-prefill-request-success")
                .tag("status_code", "200").register(registry).increment();
    }

    /** Upstream's statuses: http_error/&lt;code&gt;, timeout/504, error/502, context_canceled/499. */
    public void prefillFailed(String status, int statusCode) {
        prefillOutstanding.decrementAndGet();
        Counter.builder("gateway_prefill_request_fail").tag("status", status)
                .tag("status_code", Integer.toString(statusCode)).register(registry).increment();
    }

    /**
     * pd-gateway's own pd_gateway_prefill_retries_total: a prefill that failed transiently (status and status_code as
     * in gateway_prefill_request_fail_total) was tried again, on another prefill/decode pair ({@code to="pd_pair"})
     * or on a standard pod ({@code to="standard"}).
     */
    public void prefillRetried(String model, String status, int statusCode, boolean toPair) {
        Counter.builder(PREFILL_RETRIES).description("Prefills retried on other pods after a transient failure")
                .tag("model", model).tag("status", status).tag("status_code", Integer.toString(statusCode))
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
        Counter.builder("pd_selected_prefill_pod").tag("namespace", prefill.namespace()).tag("pod", prefill.name())
                .tag("roleset", prefill.rolesetName()).register(registry).increment();
        Counter.builder("pd_selected_decode_pod").tag("namespace", decode.namespace()).tag("pod", decode.name())
                .tag("roleset", decode.rolesetName()).register(registry).increment();
    }

    /**
     * Per-phase histograms of successful requests, labelled by model: pd_ttft_seconds (arrival to the first byte of
     * the answer), pd_prefill_duration_seconds, pd_kv_transfer_estimate_seconds (prefill answer to first decode byte:
     * the KV transfer plus the first decode step; sequential engines only) and pd_decode_duration_seconds (first to
     * last byte).
     */
    public io.pdgateway.server.exchange.PhaseHistograms phases(String model) {
        return new io.pdgateway.server.exchange.PhaseHistograms(
                timer("pd_ttft_seconds", "Time to the first byte of the answer", model),
                timer("pd_prefill_duration_seconds", "Prefill leg duration", model),
                timer("pd_kv_transfer_estimate_seconds", "Prefill answer to first decode byte (KV transfer + first step)",
                        model),
                timer("pd_decode_duration_seconds", "First to last byte of the answer", model));
    }

    private Timer timer(String name, String help, String model) {
        return Timer.builder(name).description(help).tag("model", model).publishPercentileHistogram().register(registry);
    }

    /** Time spent choosing pods (the cascade and the ledger charge), per model. */
    public void routingTime(String model, long nanos) {
        Timer.builder("pd_routing_duration_seconds").description("Time to choose the pods of one request")
                .tag("model", model).publishPercentileHistogram().register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Prefill legs in flight (the gateway_prefill_outstanding_requests gauge). */
    public int prefillOutstanding() {
        return prefillOutstanding.get();
    }
}
