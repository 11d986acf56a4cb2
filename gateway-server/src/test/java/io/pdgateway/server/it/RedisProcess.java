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

/** A real redis-server on a free loopback port, started and killed by the test (never the machine's own). */
final class RedisProcess implements AutoCloseable {
    final int port;
    private final Path dir;
    private Process process;

    RedisProcess() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        dir = Files.createTempDirectory("pd-gateway-redis");
        start();
    }

    void start() throws IOException {
        process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        await().atMost(10, TimeUnit.SECONDS).ignoreExceptions().until(this::ping);
    }

    /** Kills the server the hard way, as a crash would. */
    void kill() {
        process.destroyForcibly();
        await().atMost(10, TimeUnit.SECONDS).until(() -> !process.isAlive());
    }

    boolean ping() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[7];
            int n = in.read(buffer);
            return n > 0 && new String(buffer, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
