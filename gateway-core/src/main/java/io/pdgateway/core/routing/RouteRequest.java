package io.pdgateway.core.routing;

/**
 * What routing needs to know about one request; built at the edge from the HTTP request.
 *
 * @param promptTokens cl100k_base token count of the prompt text (0 when bucketing is off and nobody needs it)
 * @param strategy the resolved routing strategy
 * @param profile the config-profile header value, or null
 */
public record RouteRequest(String model, String requestId, int promptTokens, String strategy, String profile) {}
