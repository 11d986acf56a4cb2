package io.pdgateway.epp;

/**
 * The names of the Gateway API Inference Extension's endpoint-picker protocol (its proposal 004, "Endpoint Picker
 * Protocol", v1.0.0), spelled exactly as the protocol does. README, "Envoy endpoint picker", says what each carries.
 */
public final class EppProtocol {
    private EppProtocol() {}

    /** Request header the picker sets to the chosen endpoint, ip:port (the proxy's ORIGINAL_DST cluster reads it). */
    public static final String DESTINATION_ENDPOINT = "x-gateway-destination-endpoint";
    /** Dynamic-metadata namespace of the picked endpoint (the same key and value as the header). */
    public static final String LB_NAMESPACE = "envoy.lb";
    /** Filter-metadata namespace in which the proxy may send the subset the picker must choose from. */
    public static final String SUBSET_HINT_NAMESPACE = "envoy.lb.subset_hint";
    /** Key of that subset: a list of ip:port. */
    public static final String DESTINATION_ENDPOINT_SUBSET = "x-gateway-destination-endpoint-subset";
    /** Key, under {@link #LB_NAMESPACE} in the response's metadata context, of the endpoint that served the request. */
    public static final String DESTINATION_ENDPOINT_SERVED = "x-gateway-destination-endpoint-served";
    /** The gRPC health services the protocol asks for, beside the overall "" service. */
    public static final String HEALTH_LIVENESS = "liveness";
    public static final String HEALTH_READINESS = "readiness";
    public static final String HEALTH_EXT_PROC = "envoy.service.ext_proc.v3.ExternalProcessor";
}
