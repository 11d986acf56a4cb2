package io.pdgateway.server.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.config.PodConnectionLimits;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One pod's gate on its own: slots go to waiting requests in arrival order, a request that left the line or timed
 * out never takes one, and a slot released twice comes back once. Callers run on an event loop, as exchanges do.
 */
class PodGateTest {
    private static final Pod POD = new Pod("ns", "decode-0", "m", "10.0.0.1", 8000, 8000, "vllm", PodRole.DECODE,
            "rs", null, 8998, null, Map.of());
    private final Vertx vertx = Vertx.vertx();
    private final Context loop = vertx.getOrCreateContext();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<PodSlot> slots = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    /** Asks for a slot on the event loop; what happens is recorded as "name granted" or "name refused reason". */
    private PodGate.Waiter[] ask(PodGate gate, String name, long waitMillis) {
        PodGate.Waiter[] waiter = new PodGate.Waiter[1];
        loop.runOnContext(v -> waiter[0] = gate.acquire(waitMillis, new PodGate.Waiting() {
            @Override
            public void granted(PodSlot slot) {
                slots.add(slot);
                events.add(name + " granted");
            }

            @Override
            public void refused(SlotRefusal refusal) {
                events.add(name + " refused " + refusal.reason().label());
            }
        }));
        await().atMost(Duration.ofSeconds(5)).until(() -> waiter[0] != null || events.stream()
                .anyMatch(e -> e.startsWith(name + " ")));
        return waiter;
    }

    @Test
    void freedSlots_goToTheWaitersInArrivalOrder_andALeftWaiterIsSkipped() {
        PodGate gate = new PodGate(vertx, POD, new PodConnectionLimits(1, 3, 10_000));
        ask(gate, "a", 10_000);
        ask(gate, "b", 10_000);
        PodGate.Waiter[] c = ask(gate, "c", 10_000);
        ask(gate, "d", 10_000);
        assertThat(gate.waiting()).isEqualTo(3);

        loop.runOnContext(v -> gate.leave(c[0])); // c's request ended while it waited
        slots.get(0).release(); // a's stream ends: b is next
        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("b granted"));
        slots.get(1).release();
        slots.get(1).release(); // twice: one slot comes back, not two
        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("d granted"));

        assertThat(events).containsExactly("a granted", "b granted", "d granted");
        assertThat(gate.inUse()).isEqualTo(1);
        assertThat(gate.waiting()).isZero();
    }

    @Test
    void aWaiterThatTimedOut_isRefused_andTheNextFreedSlotStaysFree() {
        PodGate gate = new PodGate(vertx, POD, new PodConnectionLimits(1, 1, 3_000));
        ask(gate, "a", 10_000);
        ask(gate, "b", 3_000); // long enough to still wait when c comes, on a loaded machine
        ask(gate, "c", 3_000); // the line (1) is full

        await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("b refused wait_timeout"));
        slots.get(0).release();

        await().atMost(Duration.ofSeconds(5)).until(() -> gate.inUse() == 0);
        assertThat(events).containsExactly("a granted", "c refused queue_full", "b refused wait_timeout");
        assertThat(gate.refused(SlotRefusal.Reason.QUEUE_FULL)).isEqualTo(1);
        assertThat(gate.refused(SlotRefusal.Reason.WAIT_TIMEOUT)).isEqualTo(1);
        assertThat(gate.idle()).isTrue();
    }
}
