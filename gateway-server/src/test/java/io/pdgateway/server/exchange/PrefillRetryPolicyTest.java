package io.pdgateway.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The retry predicate: transient failures only (a refused or broken connection, 502, 503, 504), never a 4xx, a 500,
 * a timeout or an unusable answer; never once anything reached the client; once per request; never when disabled.
 */
class PrefillRetryPolicyTest {
    private static final byte[] BODY = "{\"error\":\"x\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    record Row(String name, LegFailure failure, boolean retried) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> failures() {
        return Stream.of(
                new Row("connection refused", LegFailure.transport(new java.net.ConnectException("refused")), true),
                new Row("connection reset", LegFailure.transport(new IOException("Connection reset")), true),
                new Row("502", LegFailure.httpStatus(502, BODY), true),
                new Row("503", LegFailure.httpStatus(503, BODY), true),
                new Row("504", LegFailure.httpStatus(504, BODY), true),
                new Row("500 is the engine's failure", LegFailure.httpStatus(500, BODY), false),
                new Row("400 is the request's fault", LegFailure.httpStatus(400, BODY), false),
                new Row("429 is the client's rate", LegFailure.httpStatus(429, BODY), false),
                new Row("timeout spent the budget", LegFailure.timeout(30_000), false),
                new Row("unusable answer", LegFailure.protocol("not JSON"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void transientOnly(Row row) {
        assertThat(new PrefillRetryPolicy(true).allows(row.failure(), false)).isEqualTo(row.retried());
    }

    @Test
    void somethingReachedTheClient_neverRetried() {
        assertThat(new PrefillRetryPolicy(true).allows(LegFailure.httpStatus(503, BODY), true)).isFalse();
    }

    @Test
    void oncePerRequest() {
        PrefillRetryPolicy policy = new PrefillRetryPolicy(true);
        assertThat(policy.allows(LegFailure.httpStatus(503, BODY), false)).isTrue();
        policy.taken();
        assertThat(policy.allows(LegFailure.httpStatus(503, BODY), false)).isFalse();
    }

    @Test
    void disabled_neverRetried() {
        assertThat(new PrefillRetryPolicy(false).allows(LegFailure.httpStatus(503, BODY), false)).isFalse();
    }
}
