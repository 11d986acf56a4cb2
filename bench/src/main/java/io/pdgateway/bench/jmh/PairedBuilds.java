package io.pdgateway.bench.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntToLongFunction;

/**
 * Two builds' routing decisions measured in turns in one JVM: what a change costs or saves on a host whose speed drifts
 * by tens of percent within minutes (this one's does: `HostJitter`), where two JMH runs one after the other compare
 * hours, not builds. Each build's benchmark jar gets a class loader of its own, in which this build's
 * {@link DecisionBatches} drives that build's classes (so both run the same harness); batches of decisions then
 * alternate between the two, and each round's ratio of CPU time per decision compares the builds within the same
 * seconds.
 *
 * <p>One JVM running two copies of the code is not neutral: in A/A runs (one jar twice) the copy loaded second ran
 * 5-10 % slower or faster, one way or the other from run to run. So the comparison runs twice, in child JVMs, once
 * with each build loaded first, and reports the geometric mean of the two orders' ratios, in which that bias cancels,
 * beside each order's ratio (their disagreement is what the bias was). Two copies also compile apart, so even that
 * estimate strays: A/A runs (one jar as both builds) gave 0.93-1.08. It is made three times by default (six child
 * JVMs) and the median reported; a difference inside that band is not a finding.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.pdgateway.bench.jmh.PairedBuilds <jar A> <jar B> [pods=512]
 * [policies=predicted_ttft/token_load] [promptTokens=8000] [rounds=60] [batch=1000] [pairs=3]}: both jars are benchmark
 * jars ({@code bench/target/benchmarks.jar} of each build, copied aside).
 */
public final class PairedBuilds {
    private static final String RATIO = "ratio ";

    private PairedBuilds() {}

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("child")) {
            child(args);
            return;
        }
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: PairedBuilds <jar A> <jar B> [pods=] [policies=] "
                    + "[promptTokens=] [rounds=] [batch=]");
        }
        Map<String, String> options = options(Arrays.copyOfRange(args, 2, args.length));
        int pairs = Integer.parseInt(options.remove("pairs"));
        double[] estimates = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            double ab = runChild(args[0], args[1], options);
            double ba = runChild(args[1], args[0], options);
            estimates[i] = Math.sqrt(ab / ba);
            System.out.printf(Locale.ROOT, "pair %d: %.3f (A loaded first %.3f, B first %.3f)%n", i + 1, estimates[i],
                    ab, 1 / ba);
        }
        double[] sorted = estimates.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "B against A, CPU time per decision: %.3f (median of %d pairs of runs; "
                + "range %.3f-%.3f)%n", sorted[pairs / 2], pairs, sorted[0], sorted[pairs - 1]);
    }

    /** Runs one order in a child JVM; returns its median per-round ratio of the second build to the first. */
    private static double runChild(String first, String second, Map<String, String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch", "-cp", System.getProperty("java.class.path"),
                PairedBuilds.class.getName(), "child", first, second));
        options.forEach((k, v) -> command.add(k + "=" + v));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        double ratio = Double.NaN;
        try (var lines = process.inputReader().lines()) {
            for (String line : (Iterable<String>) lines::iterator) {
                System.out.println(line);
                if (line.startsWith(RATIO)) {
                    ratio = Double.parseDouble(line.substring(RATIO.length()).split(" ")[0]);
                }
            }
        }
        if (process.waitFor() != 0 || Double.isNaN(ratio)) {
            throw new IllegalStateException("the run " + first + " then " + second + " failed");
        }
        return ratio;
    }

    private static void child(String[] args) {
        Map<String, String> options = options(Arrays.copyOfRange(args, 3, args.length));
        options.remove("pairs");
        int pods = Integer.parseInt(options.get("pods"));
        int promptTokens = Integer.parseInt(options.get("promptTokens"));
        int rounds = Integer.parseInt(options.get("rounds"));
        int batch = Integer.parseInt(options.get("batch"));
        IntToLongFunction[] builds = new IntToLongFunction[2];
        for (int k = 0; k < 2; k++) {
            builds[k] = load(args[1 + k], pods, options.get("policies"), promptTokens);
        }
        for (int w = 0; w < 10; w++) { // both compiled before the measured rounds
            builds[0].applyAsLong(batch);
            builds[1].applyAsLong(batch);
        }
        double[][] micros = new double[2][rounds];
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            int one = r % 2; // each build goes first in every other round
            micros[one][r] = builds[one].applyAsLong(batch) / 1e3 / batch;
            micros[1 - one][r] = builds[1 - one].applyAsLong(batch) / 1e3 / batch;
            ratios[r] = micros[1][r] / micros[0][r];
        }
        for (int k = 0; k < 2; k++) {
            double[] sorted = micros[k].clone();
            Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "  %s: %.1f µs a decision (median of %d batches; min %.1f)%n", args[1 + k],
                    sorted[rounds / 2], rounds, sorted[0]);
        }
        long faster = Arrays.stream(ratios).filter(x -> x < 1).count();
        Arrays.sort(ratios);
        System.out.printf(Locale.ROOT, "%s%.4f (second / first, median of %d rounds; quartiles %.3f-%.3f; "
                + "second faster in %d)%n", RATIO, ratios[rounds / 2], rounds, ratios[rounds / 4],
                ratios[rounds * 3 / 4], faster);
    }

    private static IntToLongFunction load(String jar, int pods, String policies, int promptTokens) {
        try {
            ClassLoader loader = new BuildLoader(Path.of(jar).toUri().toURL());
            return (IntToLongFunction) loader.loadClass(DecisionBatches.class.getName())
                    .getConstructor(int.class, String.class, int.class, boolean.class)
                    .newInstance(pods, policies, promptTokens, true);
        } catch (ReflectiveOperationException | IOException e) {
            throw new IllegalStateException("cannot load the build in " + jar, e);
        }
    }

    private static Map<String, String> options(String[] args) {
        return ToolOptions.parse(Map.of("pods", "512", "policies", "predicted_ttft/token_load", "promptTokens", "8000",
                "rounds", "60", "batch", "1000", "pairs", "3"), args);
    }

    /**
     * One build's classes, and this build's {@link DecisionBatches} defined beside them (in their package, so it
     * reaches the package's benchmark model), whether or not that build has one of its own.
     */
    private static final class BuildLoader extends URLClassLoader {
        BuildLoader(URL jar) {
            super(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.equals(DecisionBatches.class.getName())) {
                return super.findClass(name);
            }
            try (InputStream in = PairedBuilds.class.getResourceAsStream("DecisionBatches.class")) {
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
