package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A made-up request id reads as a random UUID to whatever parses it, and two event loops never make the same one. */
class RequestIdsTest {
    @Test
    void anIdIsAVersionFourUuidOfTheIetfVariant() {
        UUID id = UUID.fromString(RequestIds.next());

        assertThat(id.version()).isEqualTo(4);
        assertThat(id.variant()).isEqualTo(2);
    }

    @Test
    void idsMadeOnTwoThreadsAtOnce_areAllDistinct() throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(2);
        Runnable loop = () -> {
            for (int i = 0; i < 50_000; i++) {
                ids.add(RequestIds.next());
            }
            done.countDown();
        };
        new Thread(loop).start();
        new Thread(loop).start();

        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ids).hasSize(100_000);
    }
}
