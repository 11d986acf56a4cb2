package io.pdgateway.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The probe's /metrics read against a listener that accepts h2c, as the streams benchmark's gateway does: a page
 * larger than one HTTP/2 frame must arrive whole on every new connection. The JDK's client, left to offer the upgrade,
 * lost about one such page in ten here (EOF, a frame error, or a read that never ends).
 */
class GatewayProbeScrapeTest {
    /** New connections read: at one loss in ten, all 60 whole by chance is under one in 500. */
    private static final int READS = 60;

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void metrics_h2cListener_pageOverAFrame_wholeOnEveryNewConnection() throws Exception {
        StringBuilder page = new StringBuilder();
        for (int i = 0; page.length() < 64 * 1024; i++) {
            page.append("pd_gateway_upstream_connections_in_use{pod_name=\"decode-").append(i).append("\"} 1.0\n");
        }
        String exposition = page.toString();
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(true))
                .requestHandler(req -> req.response().end(exposition)).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);

        for (int i = 0; i < READS; i++) {
            // A probe per read: its own client, so its own connection, where an upgrade would be offered.
            assertThat(new GatewayProbe(ProcessHandle.current().pid(), server.actualPort()).metrics())
                    .as("read %d", i).isEqualTo(exposition);
        }
    }
}
