package io.pdgateway.server.it;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server on a free loopback port, started and killed by the test (never the machine's own), optionally
 * requiring a password ({@code --requirepass}).
 */
final class RedisProcess implements AutoCloseable {
    final int port;
    private final Path dir;
    private final String password;
    private Process process;

    RedisProcess() throws IOException {
        this(null);
    }

    /** @param password what clients must AUTH with, or null for none */
    RedisProcess(String password) throws IOException {
        this.password = password;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        dir = Files.createTempDirectory("pd-gateway-redis");
        start();
    }

    void start() throws IOException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("redis-server", "--port",
                Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                dir.toString()));
        if (password != null) {
            command.addAll(java.util.List.of("--requirepass", password));
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        await().atMost(10, TimeUnit.SECONDS).ignoreExceptions().until(this::ping);
    }

    /** Keys matching the pattern, counted by the server (authenticated as the test, with the password). */
    int countKeys(String pattern) throws IOException {
        String reply = call("KEYS " + pattern);
        return reply.startsWith("*") ? Integer.parseInt(reply.substring(1, reply.indexOf('\r'))) : -1;
    }

    /** Kills the server the hard way, as a crash would. */
    void kill() {
        process.destroyForcibly();
        await().atMost(10, TimeUnit.SECONDS).until(() -> !process.isAlive());
    }

    boolean ping() throws IOException {
        return call("PING").startsWith("+PONG");
    }

    /** One inline command (after AUTH when the server wants a password); the first reply line(s) read. */
    private String call(String command) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (password != null) {
                out.write(("AUTH " + password + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String ok = readLine(in);
                if (!ok.startsWith("+OK")) {
                    return ok;
                }
            }
            out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return readLine(in) + "\r\n";
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
