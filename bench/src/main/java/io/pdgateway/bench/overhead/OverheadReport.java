package io.pdgateway.bench.overhead;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.workload.report.JsonReportWriter;
import io.pdgateway.workload.report.ReportDocument;
import io.pdgateway.workload.report.RunSummary;
import io.pdgateway.workload.report.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The overhead numbers: per prompt size, each target's time to the first token and gap between tokens, what it adds
 * over going direct, the rate it sustains, and pd-gateway's figures as ratios to nginx's (measured in the same run,
 * because this machine is noisy). The first token, not the first byte, is what is judged: an SGLang decode pod sends
 * its response head before the KV has arrived, so a client running both legs itself "receives a first byte" at once,
 * while pd-gateway sends its head with the first token (so a pod that fails first still gets a proper error status).
 * For a vLLM pod the head and the first token come together, so there both measures agree.
 */
public final class OverheadReport {
    private OverheadReport() {}

    public static String text(List<SizeResult> sizes, OverheadSettings settings) {
        StringBuilder out = new StringBuilder();
        for (SizeResult size : sizes) {
            out.append(String.format(Locale.ROOT, "%n%s, prompts of %s, %d output tokens, %.0f req/s (%d rounds x %.1f s "
                            + "per target); latencies in ms%n", size.scenario(), OverheadBenchmark.sizeLabel(size.promptTokens()),
                    settings.outputTokens(), settings.fixedRate(), settings.rounds(),
                    OverheadSettings.seconds(settings.sliceSeconds(), settings.fixedRate())));
            out.append(table(size).render());
            out.append(rounds(size));
            out.append(cpu(size, settings));
            out.append(wakeups(size, settings));
            out.append(limit(size));
            out.append(ratios(size));
            out.append(steps(size));
        }
        return out.toString();
    }

    static TextTable table(SizeResult size) {
        TextTable table = new TextTable(List.of("target", "TTFT p50", "TTFT p99", "added p50", "added p99", "TTFB p50",
                "TTFB p99", "gap mean", "gap p99", "added gap mean", "added gap p99", "errors", "sustained req/s"));
        RunSummary direct = size.direct().fixedRate().summary();
        for (TargetResult target : size.targets()) {
            RunSummary s = target.fixedRate().summary();
            boolean isDirect = target == size.direct();
            table.row(List.of(target.target(), ms(s.ttft().p50()), ms(s.ttft().p99()),
                    isDirect ? "-" : ms(s.ttft().p50() - direct.ttft().p50()),
                    isDirect ? "-" : ms(s.ttft().p99() - direct.ttft().p99()), ms(s.ttfb().p50()), ms(s.ttfb().p99()),
                    ms(s.itl().mean()), ms(s.itl().p99()),
                    isDirect ? "-" : ms(s.itl().mean() - direct.itl().mean()),
                    isDirect ? "-" : ms(s.itl().p99() - direct.itl().p99()), Integer.toString(s.errors()),
                    sustained(target.search())));
        }
        return table;
    }

    /**
     * Each target's first-token p99 round by round, and the median of them with what it adds to the reference's: the
     * table's p99 pools the rounds, so one stall of this shared host in one round (a pooled p99 of 1,819 ms against
     * rounds of a few milliseconds, 2026-12-06) decides it for whichever target it hit. The rate search's limit is
     * built from the same medians.
     */
    static String rounds(SizeResult size) {
        double reference = size.direct().medianRoundTtftP99();
        List<String> parts = new ArrayList<>();
        for (TargetResult target : size.targets()) {
            if (target.roundTtftP99s().isEmpty()) {
                continue;
            }
            List<String> rounds = new ArrayList<>();
            target.roundTtftP99s().forEach(p99 -> rounds.add(String.format(Locale.ROOT, "%.1f", p99)));
            double median = target.medianRoundTtftP99();
            String added = target == size.direct() || Double.isNaN(reference) ? ""
                    : String.format(Locale.ROOT, ", added %.2f", median - reference);
            parts.add(String.format(Locale.ROOT, "%s %s (median %.2f%s)", target.target(), String.join(" / ", rounds),
                    median, added));
        }
        return parts.isEmpty() ? "" : "TTFT p99 by round, ms: " + String.join(", ", parts) + "\n";
    }

    /**
     * The one limit every target's rate search met, and a warning when the rig rather than the proxies set the
     * ceiling: the direct path cannot have sustained less than a proxy in front of the same pod, so if it did, or if
     * every target reached the search's top rate, the load generator or the pod was the bottleneck.
     */
    static String limit(SizeResult size) {
        RateSearch reference = size.direct().search();
        if (reference == null) {
            return "";
        }
        String name = size.direct().target();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "sustained: the highest rate with no error "
                + "and TTFT p99 <= %.3f ms, twice the median of %s's round p99s, the same limit for every target%n",
                reference.limitMillis(), name));
        double direct = reference.sustainedRate();
        boolean allCapped = true;
        for (TargetResult target : size.targets()) {
            RateSearch search = target.search();
            allCapped &= search != null && search.cappedByMaxRate();
            if (target != size.direct() && search != null && !Double.isNaN(search.sustainedRate())
                    && !(direct > search.sustainedRate()) && !reference.cappedByMaxRate()) {
                out.append(String.format(Locale.ROOT, "  rig limit: %s sustained %s req/s, no more than "
                        + "%s's %.0f: the load generator or the pods, not the gateway, set this ceiling (more "
                        + "generator connections or processes would raise it)%n", name, sustained(reference),
                        target.target(), search.sustainedRate()));
            }
        }
        if (allCapped) {
            out.append("  rig limit: every target sustained the search's top rate (--search-max); raise it to find "
                    + "where they differ\n");
        }
        return out.toString();
    }

    /**
     * pd-gateway against nginx (PD: against the client running both legs) as ratios of their totals (time to first
     * token, gap between tokens) and of their sustained rates. Totals, not the added parts: nginx adds tenths of a millisecond, within this machine's noise,
     * and a ratio to a number that small says nothing; the added parts are in the table.
     */
    static String ratios(SizeResult size) {
        var gateway = size.target(OverheadBenchmark.GATEWAY);
        // One hop: against nginx, the other proxy. PD: against the client that runs both legs itself.
        var other = size.target(OverheadBenchmark.NGINX)
                .or(() -> size.direct().target().equals(PdOverheadBenchmark.CLIENT_LEGS) ? Optional.of(size.direct())
                        : Optional.empty());
        if (gateway.isEmpty() || other.isEmpty()) {
            return "";
        }
        RunSummary g = gateway.get().fixedRate().summary();
        RunSummary n = other.get().fixedRate().summary();
        List<String> parts = new ArrayList<>();
        parts.add("TTFT p50 " + ratio(g.ttft().p50(), n.ttft().p50()));
        parts.add("TTFT p99 " + ratio(g.ttft().p99(), n.ttft().p99()));
        parts.add("gap mean " + ratio(g.itl().mean(), n.itl().mean()));
        parts.add("gap p99 " + ratio(g.itl().p99(), n.itl().p99()));
        parts.add("sustained rate " + ratio(rate(gateway.get().search()), rate(other.get().search())));
        return "pd-gateway / " + other.get().target() + ": " + String.join(", ", parts) + "\n";
    }

    /**
     * Each proxy's CPU per request in the fixed-rate rounds, with the part its JIT compiler took and what it burns idle
     * (at a light rate the idle part is a good share of the figure), and pd-gateway's against the other proxy's: the
     * cost a rate search on two shared cores only hints at, and a steadier one than a p99.
     */
    static String cpu(SizeResult size, OverheadSettings settings) {
        List<String> parts = new ArrayList<>();
        for (TargetResult target : size.targets()) {
            ProxyCpu cpu = target.cpu();
            if (cpu.known()) {
                parts.add(String.format(Locale.ROOT, "%s %.0f µs (compiling %.0f of it; idle %.1f ms/s)",
                        target.target(), cpu.microsPerRequest(), cpu.compilerMicrosPerRequest(),
                        cpu.idleMillisPerSecond()));
            }
        }
        String host = host(size, settings);
        if (parts.isEmpty()) {
            return host;
        }
        String line = String.format(Locale.ROOT, "proxy CPU a request at %.0f req/s (median of the rounds): %s",
                settings.fixedRate(), String.join(", ", parts));
        var gateway = size.target(OverheadBenchmark.GATEWAY);
        var nginx = size.target(OverheadBenchmark.NGINX);
        if (gateway.isPresent() && nginx.isPresent()) {
            line += "; pd-gateway / nginx " + ratio(gateway.get().cpu().microsPerRequest(),
                    nginx.get().cpu().microsPerRequest());
        }
        for (TargetResult target : size.targets()) {
            // a variant against the gateway as deployed, in the same rounds: with and without its compiler's share,
            // which moves from run to run more than most JVM settings move the rest
            if (gateway.isPresent() && GatewayVariant.isVariant(target.target())) {
                ProxyCpu base = gateway.get().cpu();
                ProxyCpu variant = target.cpu();
                line += String.format(Locale.ROOT, "; %s / pd-gateway %s, without compiling %s", target.target(),
                        ratio(variant.microsPerRequest(), base.microsPerRequest()),
                        ratio(variant.outsideCompilerMicrosPerRequest(), base.outsideCompilerMicrosPerRequest()));
            }
        }
        return host + line + "\n";
    }

    /**
     * How each proxy's threads were scheduled in the fixed-rate rounds: how often they were put on a core per request,
     * and each time how long they waited for it and ran on it. Two proxies with the same CPU a request can differ in
     * their tails on shared cores by how long each wake-up holds a core.
     */
    static String wakeups(SizeResult size, OverheadSettings settings) {
        List<String> parts = new ArrayList<>();
        for (TargetResult target : size.targets()) {
            Wakeups w = target.wakeups();
            if (!Double.isNaN(w.perRequest())) {
                parts.add(String.format(Locale.ROOT, "%s %.1f a request, each %.0f µs waiting and %.0f µs running",
                        target.target(), w.perRequest(), w.waitMicrosEach(), w.runMicrosEach()));
            }
        }
        return parts.isEmpty() ? "" : String.format(Locale.ROOT, "proxy threads put on a core at %.0f req/s (the JIT "
                + "compiler's left out, the rounds pooled): %s%n", settings.fixedRate(), String.join("; ", parts));
    }

    /**
     * The whole host's CPU a request per target, the rig's (load generator, simulated pods) and the proxy's together:
     * on a host whose cores the rig shares, what a target's rate is bounded by once they are all busy. Every process
     * counts in every round, the targets not being measured too (a gateway idling between its rounds still scrapes the
     * pod), so each figure carries the same background and the targets differ by what their requests cost.
     */
    static String host(SizeResult size, OverheadSettings settings) {
        List<String> parts = new ArrayList<>();
        for (TargetResult target : size.targets()) {
            if (!Double.isNaN(target.hostMicrosPerRequest())) {
                parts.add(String.format(Locale.ROOT, "%s %.0f µs", target.target(), target.hostMicrosPerRequest()));
            }
        }
        return parts.isEmpty() ? "" : String.format(Locale.ROOT, "host CPU a request at %.0f req/s (every process on "
                + "it, median of the rounds): %s%n", settings.fixedRate(), String.join(", ", parts));
    }

    /**
     * Every search step, so targets can be compared at the same offered rate: "rate: p99 ms" with + (passed) or -, a
     * proxy's CPU a request in the step and how many of the host's cores the step kept busy (a step near all of them
     * ran out of CPU, whatever its p99 says).
     */
    static String steps(SizeResult size) {
        StringBuilder out = new StringBuilder();
        for (TargetResult target : size.targets()) {
            if (target.search() == null) {
                continue;
            }
            List<String> steps = new ArrayList<>();
            for (RateStep step : target.search().steps()) {
                steps.add(String.format(Locale.ROOT, "%.0f: %.1f%s%s%s%s", step.offeredRate(), step.p99Millis(),
                        step.errors() > 0 ? " (" + step.errors() + " errors)" : "", step.passed() ? " +" : " -",
                        Double.isNaN(step.cpuMicrosPerRequest()) ? ""
                                : String.format(Locale.ROOT, " %.0fµs", step.cpuMicrosPerRequest()),
                        Double.isNaN(step.hostCoresBusy()) ? ""
                                : String.format(Locale.ROOT, " %.2fc", step.hostCoresBusy())));
            }
            out.append(String.format(Locale.ROOT, "  %-10s search, req/s: p99 TTFT ms (host cores busy): %s%n",
                    target.target(),
                    String.join(", ", steps)));
        }
        return out.toString();
    }

    /** The overhead section of the JSON report, beside the fixed-rate runs the standard writer emits. */
    public static ObjectNode json(ReportDocument document, List<SizeResult> sizes, OverheadSettings settings) {
        ObjectNode root = JsonReportWriter.tree(document);
        ObjectNode overhead = root.putObject("overhead");
        overhead.put("outputTokens", settings.outputTokens());
        overhead.put("fixedRate", settings.fixedRate());
        overhead.put("p99LimitFactor", RateSearch.P99_LIMIT_FACTOR);
        ArrayNode list = overhead.putArray("sizes");
        for (SizeResult size : sizes) {
            ObjectNode node = list.addObject();
            node.put("scenario", size.scenario());
            node.put("p99LimitReference", size.direct().target());
            node.put("promptTokens", size.promptTokens());
            node.put("promptBytes", size.promptBytes());
            RunSummary direct = size.direct().fixedRate().summary();
            ObjectNode targets = node.putObject("targets");
            for (TargetResult target : size.targets()) {
                ObjectNode t = targets.putObject(target.target());
                RunSummary s = target.fixedRate().summary();
                number(t, "ttftP50Ms", s.ttft().p50());
                number(t, "ttftP99Ms", s.ttft().p99());
                number(t, "addedTtftP50Ms", s.ttft().p50() - direct.ttft().p50());
                number(t, "addedTtftP99Ms", s.ttft().p99() - direct.ttft().p99());
                number(t, "ttfbP50Ms", s.ttfb().p50());
                number(t, "ttfbP99Ms", s.ttfb().p99());
                number(t, "addedTtfbP50Ms", s.ttfb().p50() - direct.ttfb().p50());
                number(t, "addedTtfbP99Ms", s.ttfb().p99() - direct.ttfb().p99());
                number(t, "gapMeanMs", s.itl().mean());
                number(t, "gapP99Ms", s.itl().p99());
                number(t, "addedGapMeanMs", s.itl().mean() - direct.itl().mean());
                number(t, "addedGapP99Ms", s.itl().p99() - direct.itl().p99());
                t.put("errors", s.errors());
                ArrayNode rounds = t.putArray("roundTtftP99Ms");
                target.roundTtftP99s().forEach(rounds::add);
                number(t, "medianRoundTtftP99Ms", target.medianRoundTtftP99());
                number(t, "addedMedianRoundTtftP99Ms", target.medianRoundTtftP99()
                        - size.direct().medianRoundTtftP99());
                number(t, "cpuMicrosPerRequest", target.cpu().microsPerRequest());
                number(t, "compilerCpuMicrosPerRequest", target.cpu().compilerMicrosPerRequest());
                number(t, "idleCpuMillisPerSecond", target.cpu().idleMillisPerSecond());
                number(t, "hostCpuMicrosPerRequest", target.hostMicrosPerRequest());
                number(t, "wakeupsPerRequest", target.wakeups().perRequest());
                number(t, "wakeupWaitMicros", target.wakeups().waitMicrosEach());
                number(t, "wakeupRunMicros", target.wakeups().runMicrosEach());
                if (target.search() != null) {
                    ObjectNode search = t.putObject("rateSearch");
                    number(search, "sustainedRate", target.search().sustainedRate());
                    search.put("cappedByMaxRate", target.search().cappedByMaxRate());
                    number(search, "baselineP99Ms", target.search().baselineP99Millis());
                    ArrayNode steps = search.putArray("steps");
                    for (RateStep step : target.search().steps()) {
                        ObjectNode st = steps.addObject();
                        st.put("rate", step.offeredRate());
                        st.put("requests", step.requests());
                        st.put("errors", step.errors());
                        number(st, "ttftP99Ms", step.p99Millis());
                        st.put("passed", step.passed());
                        number(st, "cpuMicrosPerRequest", step.cpuMicrosPerRequest());
                        number(st, "hostCoresBusy", step.hostCoresBusy());
                    }
                }
            }
        }
        return root;
    }

    /** The same tables for the HTML page, already escaped (preformatted text: the columns line up). */
    public static String html(List<SizeResult> sizes, OverheadSettings settings) {
        String text = text(sizes, settings).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        return "<h2>Gateway overhead</h2>\n<pre>" + text + "</pre>\n";
    }

    private static double rate(RateSearch search) {
        return search == null ? Double.NaN : search.sustainedRate();
    }

    private static String ratio(double gateway, double nginx) {
        if (Double.isNaN(gateway) || Double.isNaN(nginx) || nginx <= 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "x%.2f", gateway / nginx);
    }

    private static String sustained(RateSearch search) {
        if (search == null) {
            return "-";
        }
        if (Double.isNaN(search.sustainedRate())) {
            return "none";
        }
        return (search.cappedByMaxRate() ? ">= " : "") + String.format(Locale.ROOT, "%.0f", search.sustainedRate());
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, value);
        } else {
            node.putNull(field);
        }
    }
}
