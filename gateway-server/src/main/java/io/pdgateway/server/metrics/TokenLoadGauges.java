package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.pdgateway.core.ledger.TokenLedger;
import java.util.List;

/**
 * The spec's token_load gauges, one series per pod: pd_token_load_active_tokens, pd_token_load_kv_tokens,
 * pd_token_load_decode_tokens{namespace, pod_name}. Series appear when the ledger first charges a pod and go when
 * the janitor forgets it.
 */
public final class TokenLoadGauges {
    private final TokenLedger ledger;
    private final PodSeries series;

    public TokenLoadGauges(MeterRegistry registry, TokenLedger ledger) {
        this.ledger = ledger;
        this.series = new PodSeries(registry, id -> List.of(
                PodSeries.gauge(registry, "pd_token_load_active_tokens", "Prompt tokens the prefill pod is computing",
                        id, () -> ledger.activeTokens(id)),
                PodSeries.gauge(registry, "pd_token_load_kv_tokens",
                        "Prompt tokens whose KV the prefill pod still holds", id, () -> ledger.kvTokens(id)),
                PodSeries.gauge(registry, "pd_token_load_decode_tokens", "Prompt tokens charged to the decode pod",
                        id, () -> ledger.decodeTokens(id))));
    }

    /** Adds series for newly charged pods and removes those of forgotten ones; call about once a second. */
    public void sync() {
        series.sync(ledger.podIds());
    }
}
