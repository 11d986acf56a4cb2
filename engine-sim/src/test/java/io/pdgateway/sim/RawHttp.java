package io.pdgateway.sim;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A bare HTTP/1.1 client over one socket, for what a library client hides: reading a chunked response one chunk
 * at a time, seeing a stream cut short, timing out before headers, and closing the connection mid-stream.
 */
public final class RawHttp implements Closeable {

    /** Status line and headers (names lower-cased). */
    public record Head(int status, Map<String, String> headers) {
        boolean chunked() {
            return "chunked".equalsIgnoreCase(headers.getOrDefault("transfer-encoding", ""));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    public static RawHttp connect(String host, int port, Duration readTimeout) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 2_000);
        socket.setSoTimeout((int) readTimeout.toMillis());
        return new RawHttp(socket);
    }

    public void post(String path, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + socket.getInetAddress().getHostAddress() + "\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    public Head readHead() throws IOException {
        String status = readLine();
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return new Head(Integer.parseInt(status.split(" ")[1]), headers);
    }

    /** The next chunk's payload; null after the terminating zero-length chunk; EOFException when cut short. */
    public String readChunk() throws IOException {
        int size = Integer.parseInt(readLine().trim(), 16);
        if (size == 0) {
            readLine();
            return null;
        }
        byte[] payload = in.readNBytes(size);
        if (payload.length < size) {
            throw new EOFException("connection closed inside a chunk");
        }
        readLine();
        return new String(payload, StandardCharsets.UTF_8);
    }

    /** The whole body of a response with a Content-Length. */
    String readBody(Head head) throws IOException {
        int length = Integer.parseInt(head.headers().getOrDefault("content-length", "0"));
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
