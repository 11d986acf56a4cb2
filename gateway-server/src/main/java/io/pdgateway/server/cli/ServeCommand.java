package io.pdgateway.server.cli;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code serve}: the gateway, with pods from a file (Kubernetes discovery comes with its own issue). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the gateway. Settings come from the spec's AIBRIX_* environment variables.")
public final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Option(names = "--pods", required = true, description = "Pod file: what `kubectl get pods -o yaml` prints.")
    Path podFile;

    @Option(names = "--port", defaultValue = "8888", description = "Listen port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--host", defaultValue = "0.0.0.0", description = "Listen address (default: ${DEFAULT-VALUE}).")
    String host;

    @Override
    public Integer call() throws Exception {
        GatewaySettings settings;
        try {
            settings = GatewaySettings.fromEnv(System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("pd-gateway: " + e.getMessage());
            return 2;
        }
        settings.warnings().forEach(w -> LOG.warn("{}", w));
        Vertx vertx = Vertx.vertx();
        PodFileDiscovery discovery = new PodFileDiscovery(vertx, podFile);
        discovery.start();
        GatewayServer gateway = GatewayServer.start(vertx, discovery, settings, host, port, System.nanoTime())
                .await();
        LOG.info("pd-gateway listening on {}:{} (default strategy {}, bucketing {})", host, gateway.port(),
                settings.defaultStrategy(), settings.promptLengthBucketing());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.drain();
            gateway.close().await();
            vertx.close().await();
            stopped.countDown();
        }, "pd-gateway-shutdown"));
        stopped.await();
        return 0;
    }
}
