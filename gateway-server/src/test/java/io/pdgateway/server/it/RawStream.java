package io.pdgateway.server.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A client over a bare socket, for what java.net.http hides: reading a stream piece by piece while it is still open,
 * and walking away mid-stream by closing the TCP connection.
 */
final class RawStream implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private boolean serverClosed;

    RawStream(int port, String path, String body) throws IOException {
        this("127.0.0.1", port, path, body);
    }

    RawStream(String host, int port, String path, String body) throws IOException {
        this(host, port);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        write(bytes);
    }

    private RawStream(String host, int port) throws IOException {
        socket = new Socket(host, port);
        socket.setSoTimeout(200);
        in = socket.getInputStream();
    }

    /** A connection that has sent nothing yet: the test writes the request itself, byte by byte if it likes. */
    static RawStream open(int port) throws IOException {
        return new RawStream("127.0.0.1", port);
    }

    /** Sends these bytes as they are. */
    void write(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Writes an HTTP/1.x message given as text (request line, headers and an ASCII body). */
    void writeAscii(String text) throws IOException {
        write(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** True once the server closed the connection (everything it sent before is in {@link #poll()}). */
    boolean closedByServer() throws IOException {
        poll();
        return serverClosed;
    }

    /** Reads whatever has arrived (waiting at most 200 ms for more) and returns everything received so far. */
    String poll() throws IOException {
        byte[] buffer = new byte[8192];
        if (serverClosed) {
            return received.toString(StandardCharsets.UTF_8);
        }
        try {
            int n = in.read(buffer);
            if (n > 0) {
                received.write(buffer, 0, n);
            } else if (n < 0) {
                serverClosed = true;
            }
        } catch (SocketTimeoutException e) {
            // nothing new yet
        } catch (java.net.SocketException e) {
            serverClosed = true; // reset by the server
        }
        return received.toString(StandardCharsets.UTF_8);
    }

    /** Number of SSE events carrying generated content seen so far. */
    int contentEvents() throws IOException {
        String text = poll();
        int count = 0;
        int from = 0;
        while ((from = text.indexOf("\"content\":\"", from)) >= 0) {
            count++;
            from++;
        }
        return count;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
