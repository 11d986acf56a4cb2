package io.pdgateway.routingsim;

import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.routingsim.report.PolicyReport;
import io.pdgateway.routingsim.report.SimulationReport;
import io.pdgateway.routingsim.run.PolicyRun;
import io.pdgateway.routingsim.run.RunResult;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The driver (Caffeine's Simulator): one event stream, replayed into every policy, each on a fresh cluster and
 * gateway, then one report line per policy. Policies run side by side on {@code threads} threads; each run is
 * single-threaded on its own virtual clock, so the report does not depend on how many threads there were.
 *
 * <p>Read a table against its floor (round-robin: no load signal at all) and its ceiling (the oracle: the engines' true
 * state). Evaluate on more than one trace: Mooncake has long shared prefixes, Azure has none.
 */
public final class RoutingSimulator {
    private RoutingSimulator() {}

    public static SimulationReport run(ClusterShape shape, Workload workload, List<PolicySpec> policies, long seed, Slo slo,
            int threads, String command, Consumer<String> progress) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, policies.size())), r -> {
            Thread t = new Thread(r, "routing-sim");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RunResult>> futures = new ArrayList<>();
            for (PolicySpec spec : policies) {
                futures.add(pool.submit(() -> {
                    RunResult result = new PolicyRun(shape, workload, spec, seed, slo).run();
                    progress.accept(String.format(Locale.ROOT, "  %-34s %6.1f s wall, %,d events", spec.name(),
                            result.wallNanos() / 1e9, result.events()));
                    return result;
                }));
            }
            List<PolicyReport> reports = new ArrayList<>();
            for (Future<RunResult> future : futures) {
                reports.add(PolicyReport.of(future.get(), slo, workload.spanNanos()));
            }
            return new SimulationReport(workload.name(), workload.source(), workload.requests().size(),
                    workload.spanNanos() / 1e9, shape.summary(), seed, slo, command, reports);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        } finally {
            pool.shutdownNow();
        }
    }
}
