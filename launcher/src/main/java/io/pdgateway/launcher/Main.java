package io.pdgateway.launcher;

import io.pdgateway.server.bench.BenchCommand;
import io.pdgateway.server.cli.ServeCommand;
import io.pdgateway.sim.SimCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** bin/pd-gateway's entry point. */
@Command(name = "pd-gateway", mixinStandardHelpOptions = true, version = "pd-gateway 0.1.0",
        description = "Prefill/decode disaggregation gateway for OpenAI-compatible LLM engines.",
        subcommands = {ServeCommand.class, DemoCommand.class, SimCommand.class, BenchCommand.class})
public final class Main implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        BenchCommand.quietLogs(args);
        int status = new CommandLine(new Main()).execute(args);
        if (status != 0) {
            System.exit(status);
        }
    }
}
