package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pdgateway.core.ledger.TokenLedger;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The spec's token_load gauges, one series per pod: pd_token_load_active_tokens, pd_token_load_kv_tokens,
 * pd_token_load_decode_tokens{namespace, pod_name}. Series appear when the ledger first charges a pod and go when
 * the janitor forgets it, so pods that come and go under autoscaling do not pile up on /metrics.
 */
public final class TokenLoadGauges {
    private final MeterRegistry registry;
    private final TokenLedger ledger;
    private final Map<String, List<Meter>> series = new ConcurrentHashMap<>();

    public TokenLoadGauges(MeterRegistry registry, TokenLedger ledger) {
        this.registry = registry;
        this.ledger = ledger;
    }

    /** Adds series for newly charged pods and removes those of forgotten ones; call about once a second. */
    public void sync() {
        Set<String> live = new HashSet<>(ledger.podIds());
        for (String id : live) {
            series.computeIfAbsent(id, this::register);
        }
        for (String id : Set.copyOf(series.keySet())) {
            if (!live.contains(id)) {
                series.remove(id).forEach(registry::remove);
            }
        }
    }

    private List<Meter> register(String podId) {
        int slash = podId.indexOf('/');
        String namespace = podId.substring(0, slash);
        String pod = podId.substring(slash + 1);
        return List.of(
                gauge("pd_token_load_active_tokens", "Prompt tokens the prefill pod is computing", namespace, pod,
                        l -> l.activeTokens(podId)),
                gauge("pd_token_load_kv_tokens", "Prompt tokens whose KV the prefill pod still holds", namespace, pod,
                        l -> l.kvTokens(podId)),
                gauge("pd_token_load_decode_tokens", "Prompt tokens charged to the decode pod", namespace, pod,
                        l -> l.decodeTokens(podId)));
    }

    private Meter gauge(String name, String help, String namespace, String pod, ToDoubleFunction<TokenLedger> value) {
        return Gauge.builder(name, ledger, value).description(help).tag("namespace", namespace).tag("pod_name", pod)
                .strongReference(true).register(registry);
    }
}
