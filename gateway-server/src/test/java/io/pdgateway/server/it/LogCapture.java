package io.pdgateway.server.it;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The process's log from the moment this is opened until it is closed: slf4j-simple writes to whatever
 * {@code System.err} is at each line, so the lines are kept here and passed on to the real stderr as they come.
 */
final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    LogCapture() {
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                synchronized (captured) {
                    captured.write(bytes, offset, length);
                }
                original.write(bytes, offset, length);
            }
        }, true, StandardCharsets.UTF_8));
    }

    /** The lines logged so far at {@code level} (WARN, INFO) that contain {@code text}. */
    List<String> lines(String level, String text) {
        String log;
        synchronized (captured) {
            log = captured.toString(StandardCharsets.UTF_8);
        }
        return log.lines().filter(line -> line.contains(" " + level + " ") && line.contains(text)).toList();
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
