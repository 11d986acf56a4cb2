package io.pdgateway.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stream's idle bound with real timers: chunks closer together than the bound keep it quiet however long the
 * stream runs (the timer is armed once and pushed back lazily), and the first gap longer than the bound fires it
 * once, with the alarm naming the bound.
 */
class LegWatchdogTest {
    private static final double IDLE_SECONDS = 0.5;
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void chunksWithinTheIdleBoundKeepItQuietAndTheFirstLongGapFiresIt() {
        Context context = vertx.getOrCreateContext();
        AtomicReference<String> alarm = new AtomicReference<>();
        AtomicInteger alarms = new AtomicInteger();
        AtomicInteger chunks = new AtomicInteger();
        AtomicLong chunker = new AtomicLong(-1);
        AtomicReference<LegWatchdog> watchdog = new AtomicReference<>();
        context.runOnContext(v -> {
            LegWatchdog dog = new LegWatchdog(vertx, new LegWatchdog.Bounds(5, IDLE_SECONDS, 0, "the pod"), true,
                    why -> {
                        alarms.incrementAndGet();
                        alarm.set(why);
                    });
            watchdog.set(dog);
            dog.start();
            // A chunk every 40 ms for 40 chunks: 1.6 s, three idle bounds, never one gap as long as the bound.
            chunker.set(vertx.setPeriodic(40, id -> {
                dog.chunk();
                if (chunks.incrementAndGet() == 40) {
                    vertx.cancelTimer(id);
                }
            }));
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> chunks.get() == 40);
        assertThat(alarm.get()).as("no alarm while chunks keep coming").isNull();
        await().atMost(Duration.ofSeconds(10)).until(() -> alarm.get() != null);
        assertThat(alarm.get()).isEqualTo("the pod's stream stalled for 0.5 s");
        assertThat(alarms.get()).isEqualTo(1);
    }

    @Test
    void aStreamWithoutAFirstChunkGetsTheFirstChunkAlarm() {
        AtomicReference<String> alarm = new AtomicReference<>();
        vertx.getOrCreateContext().runOnContext(v -> new LegWatchdog(vertx,
                new LegWatchdog.Bounds(0.1, IDLE_SECONDS, 0, "the decode pod"), true, alarm::set).start());
        await().atMost(Duration.ofSeconds(10)).until(() -> alarm.get() != null);
        assertThat(alarm.get()).isEqualTo("the decode pod sent no token within 0.1 s");
    }
}
