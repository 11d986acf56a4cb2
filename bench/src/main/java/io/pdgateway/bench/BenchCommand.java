package io.pdgateway.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bench}: the load generator, the policy comparison and the gateway-overhead measurement. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: load against any OpenAI endpoint, policy comparison on simulated clusters, "
                + "gateway overhead against nginx.",
        subcommands = {BenchRunCommand.class, BenchCompareCommand.class, BenchOverheadCommand.class,
            BenchCacheMemoryCommand.class, BenchConnectionsCommand.class, BenchStreamsCommand.class})
public final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Engine and gateway INFO lines would bury the progress bar and the table; warnings still show. */
    public static void quietLogs(String[] args) {
        if (args.length > 0 && args[0].equals("bench")
                && System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }
}
