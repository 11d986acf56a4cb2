package io.pdgateway.bench.load;

import java.net.URI;

/**
 * Where load goes: an OpenAI-compatible server's base URL, e.g. {@code http://127.0.0.1:8888} or
 * {@code https://api.example.com/v1}. Chat completions are posted to {@code <base>/v1/chat/completions} (the
 * {@code /v1} is not doubled when the base already ends with it).
 */
public record Endpoint(String host, int port, boolean ssl, String chatPath) {
    static final String CHAT_SUFFIX = "/chat/completions";

    public static Endpoint parse(String url) {
        URI uri = URI.create(url.trim());
        String scheme = uri.getScheme() == null ? "http" : uri.getScheme();
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("endpoint must be an http(s) URL, got " + url);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("endpoint has no host: " + url);
        }
        boolean ssl = scheme.equals("https");
        int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
        String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("/+$", "");
        if (!path.endsWith("/v1")) {
            path = path + "/v1";
        }
        return new Endpoint(uri.getHost(), port, ssl, path + CHAT_SUFFIX);
    }

    public static Endpoint local(String host, int port) {
        return new Endpoint(host, port, false, "/v1" + CHAT_SUFFIX);
    }

    @Override
    public String toString() {
        return (ssl ? "https://" : "http://") + host + ":" + port + chatPath;
    }
}
