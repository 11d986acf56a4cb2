package io.pdgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's help, as a user reads it with --help: rendered whole, with no warning from picocli. */
class MainHelpTest {

    @Test
    void everyCommandsHelpRendersWithoutAWarning() {
        PrintStream err = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        List<String> commands = new ArrayList<>();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            renderAll(Main.commandLine(), commands);
        } finally {
            System.setErr(err);
        }
        assertThat(commands).contains("pd-gateway bench overhead", "pd-gateway serve", "pd-gateway routing-sim");
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private static void renderAll(CommandLine command, List<String> seen) {
        seen.add(command.getCommandSpec().qualifiedName());
        // a description with a lone '%' is a format string picocli cannot format: it warns on stderr and prints it raw
        assertThat(command.getUsageMessage()).as(command.getCommandSpec().qualifiedName()).isNotBlank();
        for (CommandLine sub : command.getSubcommands().values()) {
            renderAll(sub, seen);
        }
    }
}
