package io.pdgateway.server.front;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The client API keys the gateway accepts: PD_GATEWAY_API_KEYS (comma-separated) and PD_GATEWAY_API_KEYS_FILE (one
 * per line; blank lines and lines starting with '#' skipped), both read once at start-up. With neither set the
 * gateway is open, as before. Either set but naming no key, or a file that cannot be read, stops start-up: silently
 * serving everyone when the operator meant to close the gateway is the one failure that must not happen. Keys are
 * kept as SHA-256 digests and every one is compared in constant time, so the answer's timing says nothing about
 * how close a guess came.
 */
public final class ApiKeys {
    private static final String BEARER = "bearer ";

    private final List<byte[]> digests;

    private ApiKeys(List<byte[]> digests) {
        this.digests = List.copyOf(digests);
    }

    /** Whether the settings ask for API keys at all (then {@link #load} yields at least one). */
    private static boolean configured(GatewaySettings settings) {
        return settings.front().apiKeys() != null || settings.front().apiKeysFile() != null;
    }

    /** The configured keys; blocking file I/O, for start-up only. */
    public static ApiKeys load(GatewaySettings settings) {
        List<byte[]> digests = new ArrayList<>();
        if (settings.front().apiKeys() != null) {
            for (String key : settings.front().apiKeys().split(",")) {
                add(digests, key);
            }
        }
        if (settings.front().apiKeysFile() != null) {
            try {
                for (String line : Files.readAllLines(Path.of(settings.front().apiKeysFile()), StandardCharsets.UTF_8)) {
                    if (!line.strip().startsWith("#")) {
                        add(digests, line);
                    }
                }
            } catch (IOException e) {
                throw new IllegalArgumentException(SpecEnv.API_KEYS_FILE + "=" + settings.front().apiKeysFile()
                        + " cannot be read (" + e + "); refusing to start without the keys it should hold");
            }
        }
        if (configured(settings) && digests.isEmpty()) {
            throw new IllegalArgumentException(SpecEnv.API_KEYS + " / " + SpecEnv.API_KEYS_FILE
                    + " are set but name no key; refusing to start open to everyone");
        }
        return new ApiKeys(digests);
    }

    private static void add(List<byte[]> digests, String key) {
        String trimmed = key.strip();
        if (!trimmed.isEmpty()) {
            digests.add(sha256(trimmed));
        }
    }

    /** True when clients must present a key. */
    public boolean required() {
        return !digests.isEmpty();
    }

    /** Whether an Authorization header value ("Bearer KEY", the scheme in any case) carries an accepted key. */
    public boolean admits(String authorization) {
        if (!required()) {
            return true;
        }
        if (authorization == null || !authorization.toLowerCase(Locale.ROOT).startsWith(BEARER)) {
            return false;
        }
        byte[] presented = sha256(authorization.substring(BEARER.length()).strip());
        boolean match = false;
        for (byte[] digest : digests) {
            match |= MessageDigest.isEqual(digest, presented); // no early exit: every key costs the same
        }
        return match;
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
