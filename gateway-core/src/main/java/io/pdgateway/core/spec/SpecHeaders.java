package io.pdgateway.core.spec;

/** HTTP headers of the spec and design.md §2, lower case (HTTP header names are case-insensitive). */
public final class SpecHeaders {
    // Request headers.
    public static final String ROUTING_STRATEGY = "routing-strategy";
    public static final String CONFIG_PROFILE = "config-profile";
    public static final String SESSION_KEY = "x-aibrix-session-key";
    public static final String REQUEST_ID = "x-request-id";

    // Response headers.
    /** The decode or combined pod's name. */
    public static final String TARGET_POD = "target-pod";
    /** The prefill pod's name, PD path only. */
    public static final String PREFILL_TARGET_POD = "prefill-target-pod";
    /** Set to "true" when the prefill leg failed. */
    public static final String ERROR_PD_PREFILL = "x-error-pd-prefill";
    /** Set to "true" when the decode watchdog answered 504. */
    public static final String ERROR_PD_DECODE = "x-error-pd-decode";
    /** Request header: "true" asks for {@link #PD_DECISION} in the response. */
    public static final String PD_DEBUG = "x-pd-debug";
    /** Debug response header: which cascade steps decided, why, and the candidates' final scores. */
    public static final String PD_DECISION = "x-pd-decision";

    private SpecHeaders() {}
}
