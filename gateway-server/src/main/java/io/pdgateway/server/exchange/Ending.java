package io.pdgateway.server.exchange;

import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.upstream.SlotRefusal;

/**
 * Every way a routed request can end other than success: the {@code status} label of
 * gateway_request_model_fail_total and the {@code code} of the client's OpenAI-style error, together, so neither can
 * drift from the other.
 */
enum Ending {
    /** The client closed its connection (status 499). */
    CLIENT_CANCEL("client_cancel", null),
    /** The model's engine has no PD adapter in this build (501). */
    ENGINE_NOT_SUPPORTED("engine_not_supported", "engine_not_supported"),
    /** The prefill pod's metadata the plan needs (TensorRT-LLM /server_info) is missing or invalid (503). */
    PREREQUISITE_FAILED("pd_server_info_fail", "server_info_unavailable"),
    /** The engine adapter could not build the legs (502). */
    PLAN_FAILED("pd_plan_fail", "pd_plan_failed"),
    /** The prefill leg failed and was not (or no longer) retried: x-error-pd-prefill. */
    PREFILL_FAILED("pd_prefill_fail", "prefill_failed"),
    /** The decode watchdog gave up on the decode pod (spec: counted with status_code 504 even on a cut stream). */
    DECODE_WATCHDOG("pd_decode_watchdog", "decode_timeout"),
    /** A standard pod's leg exceeded its bound (PD_GATEWAY_UPSTREAM_*): 504 before the first byte, cut short after. */
    UPSTREAM_TIMEOUT("upstream_timeout", "upstream_timeout"),
    /**
     * The client stopped reading for PD_GATEWAY_CLIENT_WRITE_STALL_TIMEOUT: its connection is closed (counted as 499,
     * the client's side); the pod is not blamed.
     */
    CLIENT_SLOW("client_slow", null),
    /** The decode or single pod could not be reached (502). */
    UPSTREAM_UNREACHABLE("upstream_error", "upstream_unreachable"),
    /** The decode or single pod failed before anything reached the client, or answered an error status. */
    UPSTREAM_FAILED("upstream_error", "upstream_error"),
    /**
     * One of the request's pods had every connection in use (PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD) and its
     * waiting line full (PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD): 503 with Retry-After, nothing sent to any pod.
     */
    UPSTREAM_QUEUE_FULL("upstream_queue_full", "upstream_queue_full"),
    /** No connection to one of the request's pods came free within PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT: 503, Retry-After. */
    UPSTREAM_WAIT_TIMEOUT("upstream_wait_timeout", "upstream_wait_timeout"),
    /** The decode or single pod broke off an answer already streaming to the client, which is cut short. */
    UPSTREAM_BROKE_OFF("upstream_broke_off", "upstream_error");

    private final String metricStatus;
    private final String errorCode;

    Ending(String metricStatus, String errorCode) {
        this.metricStatus = metricStatus;
        this.errorCode = errorCode;
    }

    String metricStatus() {
        return metricStatus;
    }

    String errorCode() {
        return errorCode;
    }

    /** The ending of a request refused a connection to one of its pods. */
    static Ending refused(SlotRefusal.Reason reason) {
        return reason == SlotRefusal.Reason.QUEUE_FULL ? UPSTREAM_QUEUE_FULL : UPSTREAM_WAIT_TIMEOUT;
    }

    /** The client's OpenAI-style error for this ending, with {@code header} (e.g. x-error-pd-decode) set when not null. */
    ApiError error(int status, String message, String header) {
        ApiError error = ApiError.of(status, message, errorCode);
        return header == null ? error : error.withHeader(header);
    }
}
