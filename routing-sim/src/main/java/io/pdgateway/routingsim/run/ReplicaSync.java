package io.pdgateway.routingsim.run;

import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.routingsim.event.Event;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.routingsim.gateway.SimGateway;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Gateway replicas sharing their load as through Redis (server/redis/SharedLedgerSync): every
 * {@link #SYNC_INTERVAL_NANOS} each replica publishes its running counts and, with AIBRIX_TOKEN_LOAD_SHARED_LEDGER, its
 * decode ledger, and routes on the sum of the others' until the next round. Prefix-cache views are not shared: each
 * replica knows only the prompts it routed itself.
 */
final class ReplicaSync {
    /** Reference §4: the replicas sync every 100 ms, as the server does. */
    static final long SYNC_INTERVAL_NANOS = 100_000_000L;

    private ReplicaSync() {}

    static void start(List<SimGateway> gateways, EventQueue queue, boolean shareDecodeLedger, BooleanSupplier active) {
        RemoteLoad[] seen = new RemoteLoad[gateways.size()];
        for (int r = 0; r < gateways.size(); r++) {
            int replica = r;
            seen[r] = RemoteLoad.NONE;
            gateways.get(r).session().shareWith(() -> seen[replica]);
        }
        queue.after(SYNC_INTERVAL_NANOS, new Event() {
            @Override
            public void fire(long now) {
                List<Map<String, RemoteLoad.PodLoad>> published = new ArrayList<>();
                for (SimGateway gateway : gateways) {
                    published.add(gateway.session().publishedLoad(shareDecodeLedger));
                }
                for (int r = 0; r < gateways.size(); r++) {
                    List<Map<String, RemoteLoad.PodLoad>> others = new ArrayList<>(published);
                    others.remove(r);
                    seen[r] = RemoteLoad.sum(others, now / 1_000_000);
                }
                if (active.getAsBoolean()) {
                    queue.after(SYNC_INTERVAL_NANOS, this);
                }
            }
        });
    }
}
