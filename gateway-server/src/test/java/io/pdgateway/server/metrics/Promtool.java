package io.pdgateway.server.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Prometheus' promtool, where installed (Debian's prometheus package): the reference the lints are checked against. */
public final class Promtool {
    /** promtool answers in well under a second; this only bounds a hung one. */
    private static final long TIMEOUT_SECONDS = 30;

    private Promtool() {}

    /** Where promtool is installed, or null when it is not. */
    public static Path locate() {
        for (String candidate : List.of("/usr/bin/promtool", "/usr/local/bin/promtool")) {
            Path path = Path.of(candidate);
            if (Files.isExecutable(path)) {
                return path;
            }
        }
        return null;
    }

    /**
     * Runs {@code promtool ARGS} with {@code stdin} (or none) on its standard input; empty when it exits 0, else its
     * exit code and output.
     */
    public static String run(Path promtool, String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (var in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return "promtool did not finish within " + TIMEOUT_SECONDS + " s";
        }
        return process.exitValue() == 0 ? "" : ("exit " + process.exitValue() + ": " + output).strip();
    }
}
