package io.pdgateway.server.discovery;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.PodObject;
import io.pdgateway.core.model.PodObjectReader;
import io.pdgateway.core.spec.SpecLabels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods from the Kubernetes API: one fabric8 informer per watched namespace (or one over all namespaces) on pods that
 * carry the {@code model.aibrix.ai/name} label. The informers' caches are the source of truth; any pod event asks for
 * a rebuild of the immutable snapshot from them, debounced and run on this source's own thread, never on an event
 * loop. While the API server is unreachable the informers keep their caches, so the last known view stays in force;
 * fabric8 reconnects and relists by itself, and the events of that relist rebuild the view.
 */
public final class KubernetesDiscovery implements PodSource {
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesDiscovery.class);
    /**
     * Events that arrive within this window share one rebuild (a rollout touches many pods at once); 10 ms is far
     * inside the one-second promise for routing to follow a pod change.
     */
    static final long DEBOUNCE_MS = 10;
    /** How often the informers' watch state is sampled for the connected gauge and the outage log lines. */
    static final long CONNECTION_CHECK_MS = 200;
    /** Closing the client under a watch still delivering an event only logs noise; give the informers this long. */
    static final long CLOSE_TIMEOUT_MS = 1_000;
    /** No periodic resync: the snapshot is rebuilt on every real change, and a resync would only repeat the cache. */
    private static final long NO_RESYNC = 0;

    private final KubernetesClient client;
    private final List<String> namespaces;
    private final ScheduledExecutorService worker;
    private final List<SharedIndexInformer<Pod>> informers = new ArrayList<>();
    private final AtomicBoolean rebuildPending = new AtomicBoolean();
    private final AtomicReference<Throwable> lastError = new AtomicReference<>();
    private final AtomicBoolean unreachableLogged = new AtomicBoolean();
    /** Worker thread only: the last conversion of each pod, reused while its resourceVersion is unchanged. */
    private final Map<String, Converted> converted = new HashMap<>();
    private volatile ClusterSnapshot current = ClusterSnapshot.EMPTY;
    private volatile boolean ready;
    private volatile boolean connected;
    private volatile boolean closed;
    /** Worker thread only: an earlier connection existed, so the next one ends an outage. */
    private boolean everConnected;

    private record Converted(String uid, String resourceVersion, io.pdgateway.core.model.Pod pod) {}

    /**
     * @param client a client whose configuration says where the API server is (fabric8's default: kubeconfig, then
     *               the in-cluster service account); closed by {@link #close()}
     * @param namespaces the namespaces to watch; empty watches all of them (needs cluster-wide RBAC)
     */
    public KubernetesDiscovery(KubernetesClient client, List<String> namespaces) {
        this.client = client;
        this.namespaces = List.copyOf(namespaces);
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "pd-gateway-kubernetes-discovery");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the informers; {@link #ready()} turns true once every one of them has listed its pods. */
    public KubernetesDiscovery start() {
        ResourceEventHandler<Pod> onChange = new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                requestRebuild();
            }

            @Override
            public void onUpdate(Pod before, Pod after) {
                requestRebuild();
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                requestRebuild();
            }
        };
        List<CompletableFuture<Void>> listed = new ArrayList<>();
        for (String namespace : namespaces.isEmpty() ? Collections.<String>singletonList(null) : namespaces) {
            FilterWatchListDeletable<Pod, PodList, PodResource> pods = namespace == null
                    ? client.pods().inAnyNamespace().withLabel(SpecLabels.MODEL_NAME)
                    : client.pods().inNamespace(namespace).withLabel(SpecLabels.MODEL_NAME);
            SharedIndexInformer<Pod> informer = pods.runnableInformer(NO_RESYNC);
            informer.addEventHandler(onChange);
            // Always retry: an API server outage is expected and must never stop discovery for good.
            informer.exceptionHandler((started, error) -> {
                lastError.set(error);
                if (!ready && unreachableLogged.compareAndSet(false, true)) {
                    LOG.warn("cannot list pods from the Kubernetes API server ({}); retrying, /readyz answers 503 "
                            + "until the first list", error.toString());
                } else {
                    LOG.debug("Kubernetes informer ({}): {}", namespace == null ? "all namespaces" : namespace,
                            error.toString());
                }
                return !closed;
            });
            informers.add(informer);
            listed.add(informer.start().toCompletableFuture());
        }
        LOG.info("watching pods labelled {} in {}", SpecLabels.MODEL_NAME,
                namespaces.isEmpty() ? "all namespaces" : "namespaces " + namespaces);
        CompletableFuture.allOf(listed.toArray(CompletableFuture[]::new)).whenComplete((v, error) -> {
            if (error != null) {
                LOG.error("Kubernetes discovery failed to start: {}", error.toString());
                return;
            }
            worker.execute(() -> {
                rebuild();
                ready = true;
                LOG.info("Kubernetes discovery synced: {} routable pods in {} models", current.podCount(),
                        current.models().size());
            });
        });
        worker.scheduleWithFixedDelay(this::checkConnection, CONNECTION_CHECK_MS, CONNECTION_CHECK_MS,
                TimeUnit.MILLISECONDS);
        return this;
    }

    private void requestRebuild() {
        if (rebuildPending.compareAndSet(false, true) && !closed) {
            worker.schedule(() -> {
                rebuildPending.set(false);
                try {
                    rebuild();
                } catch (RuntimeException e) {
                    // Keep the last view rather than lose discovery: the next event tries again.
                    LOG.error("rebuilding the pod view failed; keeping the last one", e);
                }
            }, DEBOUNCE_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Worker thread: a new snapshot from the informers' caches, converting only pods whose resourceVersion moved. */
    private void rebuild() {
        List<io.pdgateway.core.model.Pod> routable = new ArrayList<>();
        Map<String, Converted> seen = new HashMap<>();
        List<String> warnings = new ArrayList<>();
        for (SharedIndexInformer<Pod> informer : informers) {
            for (Pod pod : informer.getStore().list()) {
                PodObject object = KubernetesPodObjects.of(pod);
                String uid = pod.getMetadata().getUid();
                String version = pod.getMetadata().getResourceVersion();
                Converted previous = converted.get(object.id());
                Converted now = previous != null && version != null && version.equals(previous.resourceVersion())
                        && Objects.equals(uid, previous.uid())
                        ? previous
                        : new Converted(uid, version, PodObjectReader.toPod(object, warnings));
                seen.put(object.id(), now);
                if (now.pod() != null) {
                    routable.add(now.pod());
                }
            }
        }
        converted.clear();
        converted.putAll(seen);
        warnings.forEach(w -> LOG.warn("{}", w));
        current = ClusterSnapshot.of(routable);
        LOG.debug("Kubernetes discovery: {} routable pods of {} watched", routable.size(), seen.size());
    }

    /** Worker thread: follows the informers' watch state, logging each outage once and its end once. */
    private void checkConnection() {
        boolean now = !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::isWatching);
        if (now == connected) {
            return;
        }
        connected = now;
        if (!now) {
            Throwable error = lastError.getAndSet(null);
            LOG.warn("lost the Kubernetes API server ({}); routing on the last known view of {} pods until it returns",
                    error == null ? "watch closed" : error.toString(), current.podCount());
        } else if (everConnected) {
            LOG.info("Kubernetes API server reachable again: resynced");
            requestRebuild();
        } else {
            everConnected = true;
            LOG.info("watching the Kubernetes API server");
        }
    }

    @Override
    public ClusterSnapshot current() {
        return current;
    }

    @Override
    public boolean ready() {
        return ready;
    }

    /** True while every informer holds a live watch on the API server. */
    @Override
    public boolean connected() {
        return connected;
    }

    /** Stops the informers, then closes the client once they have stopped (bounded), without blocking the caller. */
    @Override
    public void close() {
        closed = true;
        informers.forEach(SharedIndexInformer::stop);
        CompletableFuture.allOf(informers.stream().map(i -> i.stopped().toCompletableFuture())
                        .toArray(CompletableFuture[]::new))
                .orTimeout(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .whenComplete((v, error) -> {
                    worker.shutdownNow();
                    client.close();
                });
    }
}
