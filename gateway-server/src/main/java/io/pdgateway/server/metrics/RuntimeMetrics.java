package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;

/**
 * The process's own health on /metrics: Micrometer's JVM binders ({@code jvm_memory_used_bytes},
 * {@code jvm_gc_pause_seconds}, {@code jvm_threads_live_threads}, {@code jvm_classes_loaded_classes},
 * {@code process_cpu_usage}, ...) and the Prometheus client's standard process collector
 * ({@code process_cpu_seconds_total}, {@code process_start_time_seconds}, {@code process_open_fds},
 * {@code process_max_fds}, {@code process_resident_memory_bytes}, {@code process_virtual_memory_bytes}), which is what
 * Prometheus' own dashboards and alerts query. Micrometer's uptime and file-descriptor binders are left out: they
 * would export {@code process_start_time_seconds} a second time, and the collector's names are the standard ones.
 * Names promtool rejects are left out as well: the processor binder's {@code process_cpu_time_ns_total} (an
 * abbreviated unit, and {@code process_cpu_seconds_total} again) and {@code system_cpu_count} (a gauge with a
 * {@code _count} suffix), and the JIT binder's {@code jvm_compilation_time_ms_total}.
 */
final class RuntimeMetrics implements AutoCloseable {
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final JvmHeapPressureMetrics heapPressure = new JvmHeapPressureMetrics();

    RuntimeMetrics(PrometheusMeterRegistry registry) {
        registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("process.cpu.time")
                || id.getName().equals("system.cpu.count")));
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        heapPressure.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        ProcessMetrics.builder().register(registry.getPrometheusRegistry());
    }

    /** Removes the GC notification listeners (they would outlive the registry otherwise). */
    @Override
    public void close() {
        gc.close();
        heapPressure.close();
    }
}
