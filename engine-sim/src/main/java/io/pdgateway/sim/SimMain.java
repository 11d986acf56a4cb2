package io.pdgateway.sim;

import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pod standalone until the JVM is asked to stop (Ctrl-C), for the CLI's {@code sim} command, which
 * parses the options into a {@link SimConfig}. Parses nothing itself.
 */
public final class SimMain {

    private static final Logger LOG = LoggerFactory.getLogger(SimMain.class);
    /** Grace for closing the pod and Vert.x on shutdown. */
    private static final long SHUTDOWN_SECONDS = 5;

    private SimMain() {
    }

    /**
     * Starts a pod in a Vert.x instance of its own and blocks until the JVM shuts down, then closes both.
     *
     * @return 1 when the pod could not start (e.g. the port is taken); otherwise it returns only on shutdown, with 0
     */
    public static int run(SimConfig config) throws InterruptedException {
        Vertx vertx = Vertx.vertx();
        SimPod pod;
        try {
            pod = SimPod.start(vertx, config).toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            LOG.error("sim pod failed to start on {}:{}: {}", config.host(), config.port(), e.getCause().toString());
            vertx.close();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                // One after the other: a continuation chained on the pod's future would be scheduled on the pod's
                // event loop, which closing Vert.x terminates.
                pod.close().toCompletionStage().toCompletableFuture().get(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
                vertx.close().toCompletionStage().toCompletableFuture().get(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                LOG.warn("sim pod did not close cleanly: {}", e.toString());
            } finally {
                stopped.countDown();
            }
        }, "sim-shutdown"));
        stopped.await();
        return 0;
    }
}
