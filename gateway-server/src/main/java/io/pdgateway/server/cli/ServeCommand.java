package io.pdgateway.server.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.kvevents.KvEventsSettings;
import io.pdgateway.server.routing.ModelTokenizers;
import io.pdgateway.server.discovery.KubernetesDiscovery;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.front.ApiKeys;
import io.pdgateway.server.front.CorsPolicy;
import io.pdgateway.server.trace.Tracing;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code serve}: the gateway, with pods from a file or from the Kubernetes API, and a graceful stop on SIGTERM. Tracing
 * follows the standard OTEL_* variables ({@link Tracing#fromEnv}). A command that runs more beside the gateway (the
 * endpoint picker's {@code epp}) extends this one and starts it in {@link #started}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the gateway. Settings come from the spec's AIBRIX_* environment variables; tracing from "
                + "OTEL_* (off unless OTEL_TRACES_EXPORTER names an exporter).")
public class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
    /**
     * A typical chat stream ends well within 30 s, and 30 s is also what Kubernetes gives a pod by default; deployments
     * with long generations raise it (and terminationGracePeriodSeconds above it), as deploy/ does.
     */
    static final int DEFAULT_DRAIN_GRACE_SECONDS = 30;

    /** Where pods come from: exactly one of the two. */
    static final class Source {
        @Option(names = "--pods", description = "Pod file: what `kubectl get pods -o yaml` prints.")
        Path podFile;

        @Option(names = "--kubernetes", description = "Watch pods labelled model.aibrix.ai/name through the Kubernetes "
                + "API (in-cluster service account or kubeconfig, as kubectl finds them).")
        boolean kubernetes;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--namespace", description = "With --kubernetes: a namespace to watch (repeatable; default: all).")
    List<String> namespaces = new ArrayList<>();

    @Option(names = "--port", defaultValue = "8888", description = "Listen port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--host", defaultValue = "0.0.0.0", description = "Listen address (default: ${DEFAULT-VALUE}).")
    protected String host;

    @Option(names = "--drain-grace-seconds",
            defaultValue = "${env:" + SpecEnv.DRAIN_GRACE_SECONDS + ":-" + DEFAULT_DRAIN_GRACE_SECONDS + "}",
            description = "After SIGTERM, how long in-flight requests may run before the gateway exits "
                    + "(env " + SpecEnv.DRAIN_GRACE_SECONDS + "; default: ${DEFAULT-VALUE}).")
    protected int drainGraceSeconds;

    /**
     * {@code serve} on its own, without the launcher's other commands: what a test or the overhead benchmark starts as
     * a child process from its own classpath ({@code java -cp ... io.pdgateway.server.cli.ServeCommand --pods ...}).
     */
    public static void main(String[] args) {
        int status = new CommandLine(new ServeCommand()).execute(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs once the gateway listens; the returned future stops what it started (it runs first in the graceful stop).
     * Throws IllegalArgumentException for a bad option of the subcommand: start-up then stops with its message.
     */
    protected Future<Runnable> started(Vertx vertx, GatewayServer gateway, GatewaySettings settings) {
        return Future.succeededFuture(() -> { });
    }

    /** Checks the subcommand's own options before anything starts; a problem is an IllegalArgumentException. */
    protected void validate() {
    }

    @Override
    public Integer call() throws Exception {
        GatewaySettings settings;
        Tracing tracing;
        ModelTokenizers tokenizers;
        try {
            settings = GatewaySettings.fromEnv(System.getenv());
            if (drainGraceSeconds < 0) {
                throw new IllegalArgumentException("--drain-grace-seconds must be >= 0, got " + drainGraceSeconds);
            }
            if (!namespaces.isEmpty() && !source.kubernetes) {
                throw new IllegalArgumentException("--namespace needs --kubernetes");
            }
            // A bad key or origin setting stops start-up here, with its message, before anything runs.
            ApiKeys.load(settings);
            CorsPolicy.load(settings);
            validate();
            tracing = Tracing.fromEnv(System.getenv());
            tokenizers = ModelTokenizers.fromEnv(System.getenv(), settings.routing().prefixCacheTokenizer());
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("pd-gateway: " + e.getMessage());
            return 2;
        }
        settings.warnings().forEach(w -> LOG.warn("{}", w));
        Vertx vertx = GatewayVertx.create();
        PodSource pods = source.kubernetes ? kubernetes() : file(vertx);
        KvEventsSettings kvEvents = KvEventsSettings.fromEnv(System.getenv());
        kvEvents.warnings().forEach(w -> LOG.warn("{}", w));
        GatewayServer gateway = GatewayServer.start(vertx, pods, settings, kvEvents, tokenizers, host, port,
                System.nanoTime(), tracing).await();
        Runnable stopExtra = started(vertx, gateway, settings).await();
        LOG.info("pd-gateway listening on {}:{} (default strategy {}, bucketing {}, drain grace {} s)", host,
                gateway.port(), settings.routing().defaultStrategy(), settings.routing().promptLengthBucketing(),
                drainGraceSeconds);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stopExtra.run();
                gateway.drainAndClose(Duration.ofSeconds(drainGraceSeconds)).await();
            } finally {
                tracing.close();
                vertx.close().await();
                stopped.countDown();
            }
        }, "pd-gateway-shutdown"));
        stopped.await();
        return 0;
    }

    private PodSource file(Vertx vertx) {
        PodFileDiscovery discovery = new PodFileDiscovery(vertx, source.podFile);
        discovery.start();
        return discovery;
    }

    /** fabric8's default configuration: $KUBECONFIG or ~/.kube/config, else the pod's service account. */
    private PodSource kubernetes() {
        KubernetesClient client = new KubernetesClientBuilder().build();
        LOG.info("Kubernetes API server {}", client.getMasterUrl());
        return new KubernetesDiscovery(client, namespaces).start();
    }
}
