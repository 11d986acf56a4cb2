package io.pdgateway.server.routing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pdgateway.core.config.UpstreamSettings;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.outlier.OutlierDetector;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The edge's side of outlier detection: the scraper and the exchanges report what each pod did (refused a connection,
 * failed a scrape, answered), the routing session's {@link OutlierDetector} decides, and this logs one line when a pod
 * leaves routing and one when it comes back, and keeps the gauge of ejected pods and the counter of ejections.
 * Thread-safe.
 */
public final class PodOutliers {
    private static final Logger LOG = LoggerFactory.getLogger(PodOutliers.class);
    public static final String EJECTED_GAUGE = "pd_gateway_outlier_ejected_pods";
    public static final String EJECTIONS_COUNTER = "pd_gateway_outlier_ejections";

    private final OutlierDetector detector;
    private final LongSupplier nanoClock;
    private final int consecutive;
    private final Counter ejections;

    public PodOutliers(UpstreamSettings settings, MeterRegistry registry, LongSupplier nanoClock) {
        this.detector = new OutlierDetector(new OutlierDetector.Settings(settings.outlierConsecutiveFailures(),
                TimeUnit.MILLISECONDS.toNanos(settings.outlierBaseEjectionMillis()),
                TimeUnit.MILLISECONDS.toNanos(settings.outlierMaxEjectionMillis())));
        this.nanoClock = nanoClock;
        this.consecutive = settings.outlierConsecutiveFailures();
        this.ejections = Counter.builder(EJECTIONS_COUNTER)
                .description("Pods taken out of routing after consecutive refused connections or failed scrapes")
                .register(registry);
        Gauge.builder(EJECTED_GAUGE, this, o -> o.detector.ejectedCount(o.nanoClock.getAsLong()))
                .description("Pods outlier detection keeps out of routing now").register(registry);
    }

    public OutlierDetector detector() {
        return detector;
    }

    /** The pod refused or broke a connection, or its scrape failed. */
    public void failed(Pod pod, String why) {
        boolean wasEjected = detector.ejected(pod, nanoClock.getAsLong());
        OutlierDetector.Transition t = detector.failure(pod, nanoClock.getAsLong());
        if (!wasEjected && detector.ejected(pod, nanoClock.getAsLong())) {
            ejections.increment();
        }
        if (t == OutlierDetector.Transition.EJECTED) {
            LOG.warn("pod {} ejected from routing after {} consecutive failures (last: {})", pod.id(), consecutive,
                    why);
        }
    }

    /** The pod answered: a scrape, or a leg. */
    public void answered(Pod pod) {
        if (detector.success(pod, nanoClock.getAsLong()) == OutlierDetector.Transition.RETURNED) {
            LOG.info("pod {} answers again: back in routing", pod.id());
        }
    }
}
