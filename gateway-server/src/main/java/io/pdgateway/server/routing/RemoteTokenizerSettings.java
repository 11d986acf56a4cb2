package io.pdgateway.server.routing;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * Where and for how long a request's prompt is sent to an engine's {@code /tokenize} when
 * {@code AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote}.
 * <ul>
 *   <li>{@value #ENDPOINT_ENV} (AIBrix's name): {@code http://host:port} of one service that tokenizes for every
 *       model, as vLLM's API server does; unset (pd-gateway's default), each request asks one of its own model's
 *       vLLM or SGLang pods, which tokenize as they compute and so need no service of their own;
 *   <li>{@value #TIMEOUT_MS_ENV}: how long a request waits for its tokens before it is routed without them.
 * </ul>
 *
 * @param endpoint the one service to ask, or null to ask the model's own pods
 * @param timeoutMs the longest a request waits for its tokens
 */
public record RemoteTokenizerSettings(Endpoint endpoint, long timeoutMs) {
    public static final String ENDPOINT_ENV = "AIBRIX_PREFIX_CACHE_REMOTE_TOKENIZER_ENDPOINT";
    public static final String TIMEOUT_MS_ENV = "PD_GATEWAY_PREFIX_CACHE_REMOTE_TOKENIZER_TIMEOUT_MS";
    /**
     * An engine tokenizes a few thousand tokens in about a millisecond; a wait this long covers a 100k-token prompt on
     * a busy API server, and is still below the prefill time a prefix hit saves on such a prompt.
     */
    public static final long DEFAULT_TIMEOUT_MS = 200;
    static final long MAX_TIMEOUT_MS = 60_000;

    /** An operator-named tokenizer service. */
    public record Endpoint(String host, int port, boolean ssl) {}

    /** @throws IllegalStateException naming the setting that is wrong */
    public static RemoteTokenizerSettings fromEnv(Map<String, String> env) {
        return new RemoteTokenizerSettings(endpoint(env.get(ENDPOINT_ENV)), timeoutMs(env.get(TIMEOUT_MS_ENV)));
    }

    private static Endpoint endpoint(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(ENDPOINT_ENV + ": not a URL: '" + value + "'");
        }
        String scheme = uri.getScheme();
        boolean ssl = "https".equalsIgnoreCase(scheme);
        if (!ssl && !"http".equalsIgnoreCase(scheme) || uri.getHost() == null) {
            throw new IllegalStateException(ENDPOINT_ENV + ": expected http://host:port or https://host:port, got '"
                    + value + "'");
        }
        if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")
                || uri.getRawQuery() != null) {
            throw new IllegalStateException(ENDPOINT_ENV + ": give the server's address only (the gateway calls its "
                    + "/tokenize), got '" + value + "'");
        }
        int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
        return new Endpoint(uri.getHost(), port, ssl);
    }

    private static long timeoutMs(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_TIMEOUT_MS;
        }
        try {
            long ms = Long.parseLong(value.trim());
            if (ms >= 1 && ms <= MAX_TIMEOUT_MS) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // the message below names the setting
        }
        throw new IllegalStateException(TIMEOUT_MS_ENV + ": expected milliseconds from 1 to " + MAX_TIMEOUT_MS
                + ", got '" + value + "'");
    }
}
