package io.pdgateway.launcher;

import io.pdgateway.bench.BenchCommand;
import io.pdgateway.bench.validate.ValidateCommand;
import io.pdgateway.epp.EppCommand;
import io.pdgateway.routingsim.RoutingSimMain;
import io.pdgateway.server.cli.CheckTokenizerCommand;
import io.pdgateway.server.cli.ServeCommand;
import io.pdgateway.sim.SimCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** bin/pd-gateway's and bin/routing-sim's entry point: every command of the one jar. */
@Command(name = "pd-gateway", mixinStandardHelpOptions = true, version = "pd-gateway 0.1.0",
        description = "Prefill/decode disaggregation gateway for OpenAI-compatible LLM engines.",
        subcommands = {ServeCommand.class, EppCommand.class, DemoCommand.class, SimCommand.class,
                BenchCommand.class, CheckTokenizerCommand.class})
public final class Main implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        BenchCommand.quietLogs(args);
        int status = commandLine().execute(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * The command tree. routing-sim's {@code validate} runs the real gateway, which the routing-sim module must not
     * depend on, so it is bench's command, joined to routing-sim here.
     */
    static CommandLine commandLine() {
        CommandLine routingSim = new CommandLine(new RoutingSimMain()).addSubcommand(new ValidateCommand())
                .setCaseInsensitiveEnumValuesAllowed(true);
        return new CommandLine(new Main()).addSubcommand(routingSim);
    }
}
