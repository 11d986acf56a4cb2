package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pdgateway.core.model.Pod;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's own Prometheus metrics, named as upstream AIBrix names them (reference §6) so existing dashboards
 * keep working. Micrometer adds the _total suffix to counters itself, so counter names here omit it.
 */
public final class GatewayMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger prefillOutstanding = new AtomicInteger();

    public GatewayMetrics() {
        Gauge.builder("gateway_in_flight_requests", inFlight, AtomicInteger::get)
                .description("Requests the gateway is serving right now").register(registry);
        Gauge.builder("gateway_prefill_outstanding_requests", prefillOutstanding, AtomicInteger::get)
                .description("Prefill legs in flight").register(registry);
    }

    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
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

    public void selected(Pod prefill, Pod decode) {
        Counter.builder("pd_selected_prefill_pod").tag("namespace", prefill.namespace()).tag("pod", prefill.name())
                .tag("roleset", prefill.rolesetName()).register(registry).increment();
        Counter.builder("pd_selected_decode_pod").tag("namespace", decode.namespace()).tag("pod", decode.name())
                .tag("roleset", decode.rolesetName()).register(registry).increment();
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Prefill legs in flight (the gateway_prefill_outstanding_requests gauge). */
    public int prefillOutstanding() {
        return prefillOutstanding.get();
    }
}
