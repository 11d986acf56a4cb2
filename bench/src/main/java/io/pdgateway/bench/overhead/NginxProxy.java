package io.pdgateway.bench.overhead;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * nginx as a plain reverse proxy in front of one upstream, on loopback: the reference the gateway's overhead is
 * measured against. Streaming as for SSE ({@code proxy_buffering off}), HTTP/1.1 keep-alive to the upstream, one
 * worker per core, bodies up to 1 MB kept in memory (by default nginx writes bodies over 16 KB to a temp file,
 * which would make the 200 KB case measure the disk).
 */
final class NginxProxy implements AutoCloseable {
    static final long START_TIMEOUT_MS = 10_000;
    /** Where Debian puts it; also looked up on PATH. */
    static final List<String> CANDIDATES = List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx");

    private final ChildProcess process;
    private final int port;

    private NginxProxy(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The nginx binary: the one given, else the first found on PATH or in the usual places. */
    static Optional<Path> find(Path given) {
        if (given != null) {
            return Files.isExecutable(given) ? Optional.of(given) : Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir, "nginx");
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return CANDIDATES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /** The master's pid: its workers, which serve, are its children. */
    long pid() {
        return process.pid();
    }

    static NginxProxy start(Path binary, Path dir, String upstreamHost, int upstreamPort) throws IOException {
        int port = freePort();
        Files.createDirectories(dir);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, config(dir, port, upstreamHost, upstreamPort, "root".equals(System.getProperty("user.name"))));
        ChildProcess process = ChildProcess.start("nginx", List.of(binary.toString(), "-p", dir.toString(), "-c",
                conf.toString()), Map.of());
        NginxProxy proxy = new NginxProxy(process, port);
        try {
            proxy.awaitListening();
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    static String config(Path dir, int port, String upstreamHost, int upstreamPort, boolean runAsRoot) {
        return (runAsRoot ? "user root;\n" : "") + """
                worker_processes auto;
                daemon off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 8192; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    client_max_body_size 16m;
                    client_body_buffer_size 1m;
                    keepalive_requests 100000;
                    upstream engine {
                        server %3$s:%4$d;
                        keepalive 1024;
                    }
                    server {
                        listen 127.0.0.1:%2$d;
                        location / {
                            proxy_pass http://engine;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_buffering off;
                            proxy_read_timeout 300s;
                        }
                    }
                }
                """.formatted(dir, port, upstreamHost, upstreamPort);
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (System.nanoTime() < deadline) {
            if (!process.alive()) {
                break;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                ChildProcess.sleep(50);
            }
        }
        throw new IOException("nginx did not listen on 127.0.0.1:" + port + "; output:\n" + process.output());
    }

    /** An ephemeral port the kernel just handed out (freed at once: a small race nginx would report). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    @Override
    public void close() {
        process.close();
    }
}
