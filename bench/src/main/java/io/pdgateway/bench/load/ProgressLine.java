package io.pdgateway.bench.load;

import io.pdgateway.workload.run.RunRecorder;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The live progress bar of a run: redrawn in place on a terminal, a plain line every few seconds otherwise (a log
 * file full of carriage returns helps nobody).
 */
public final class ProgressLine {
    static final int BAR_WIDTH = 30;
    /** A terminal redraws at most this often; more is flicker. */
    static final long TERMINAL_REDRAW_MS = 250;
    /** Without a terminal (CI logs, pipes) one line this often is enough to show the run is alive. */
    static final long LOG_LINE_MS = 5_000;

    private final PrintStream out;
    private final boolean terminal;
    private final String label;
    private boolean drawn;
    private long lastDraw;

    private ProgressLine(PrintStream out, boolean terminal, String label) {
        this.out = out;
        this.terminal = terminal;
        this.label = label;
    }

    /** Redraws in place when this process has a console, else logs a line every few seconds. */
    public static ProgressLine to(PrintStream out, String label) {
        return new ProgressLine(out, System.console() != null, label);
    }

    public static ProgressLine silent() {
        return new ProgressLine(null, false, "");
    }

    void draw(int total, RunRecorder recorder, double elapsedSeconds) {
        if (out == null) {
            return;
        }
        long now = System.nanoTime() / 1_000_000;
        if (drawn && now - lastDraw < (terminal ? TERMINAL_REDRAW_MS : LOG_LINE_MS)) {
            return;
        }
        drawn = true;
        lastDraw = now;
        out.print(terminal ? "\r" + line(total, recorder, elapsedSeconds) : line(total, recorder, elapsedSeconds) + "\n");
        out.flush();
    }

    void finish(int total, RunRecorder recorder, double elapsedSeconds) {
        if (out == null) {
            return;
        }
        out.print((terminal ? "\r" : "") + line(total, recorder, elapsedSeconds) + "\n");
        out.flush();
    }

    private String line(int total, RunRecorder recorder, double elapsedSeconds) {
        int done = recorder.finishedCount();
        int filled = total == 0 ? BAR_WIDTH : Math.min(BAR_WIDTH, done * BAR_WIDTH / total);
        int inFlight = recorder.sentCount() - done;
        return String.format(Locale.ROOT, "%s[%s%s] %d/%d done, %d in flight, %d errors, %.0f s", label,
                "#".repeat(filled), " ".repeat(BAR_WIDTH - filled), done, total, inFlight, recorder.errorCount(),
                elapsedSeconds);
    }
}
