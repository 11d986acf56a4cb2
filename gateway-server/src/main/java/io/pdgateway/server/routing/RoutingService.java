package io.pdgateway.server.routing;

import io.pdgateway.core.config.RoutingSettings;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.scrape.MetricsStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing session as the HTTP side uses it: discovery's current view and the scraped metrics feed it, the system
 * clock drives it, and a refused admission becomes the client's OpenAI-style error.
 */
public final class RoutingService {
    private static final Logger LOG = LoggerFactory.getLogger(RoutingService.class);
    /** Error messages quote at most this much of a client-chosen value (a model name can be megabytes). */
    static final int MAX_QUOTED_CHARS = 256;

    private final RoutingSession session;
    private final PromptMeasurer measurer;

    public RoutingService(PodSource pods, RoutingSettings settings, MetricsStore metrics, long seed) {
        this(pods, settings, metrics, seed, SessionClock.SYSTEM);
    }

    /** @param clock the session's time: the system clock, except where a test replays a virtual one */
    public RoutingService(PodSource pods, RoutingSettings settings, MetricsStore metrics, long seed,
            SessionClock clock) {
        this(pods, settings, metrics, seed, clock, ModelTokenizers.NONE, null);
    }

    /**
     * @param tokenizers each model's own tokenizer (AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=huggingface or remote)
     * @param remote where models without a tokenizer file get their tokens (type {@code remote}), or null
     */
    public RoutingService(PodSource pods, RoutingSettings settings, MetricsStore metrics, long seed,
            SessionClock clock, ModelTokenizers tokenizers, RemoteTokenizer remote) {
        this.session = RoutingSession.create(settings, pods::current, metrics, clock, seed,
                warning -> LOG.warn("{}", warning));
        this.measurer = new PromptMeasurer(settings.prefixCacheTokenizer(), settings.prefixCacheBlockTokens(),
                tokenizers, remote);
    }

    public RoutingSession session() {
        return session;
    }

    public PromptMeasurer measurer() {
        return measurer;
    }

    /** The client's error for a refused admission. */
    public static ApiError error(Admission.Refusal refusal, String model) {
        return switch (refusal.reason()) {
            case UNKNOWN_MODEL -> ApiError.of(404, "The model `" + quoted(model) + "` does not exist.",
                    "model_not_found").withParam("model");
            case UNKNOWN_STRATEGY -> ApiError.of(400, refusal.message(), "invalid_routing_strategy")
                    .withParam("routing-strategy");
        };
    }

    /** A client-chosen value cut to a length safe to echo. */
    public static String quoted(String value) {
        if (value == null || value.length() <= MAX_QUOTED_CHARS) {
            return value;
        }
        return value.substring(0, MAX_QUOTED_CHARS) + "... (" + value.length() + " characters)";
    }
}
