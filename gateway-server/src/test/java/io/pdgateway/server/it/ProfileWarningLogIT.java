package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.sim.SimRole;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A profile naming an unknown decodeScorePolicy: the gateway logs one line naming the field, the bad value and the
 * policy it keeps, and serves the profile's requests on the default policy. The log is the gateway's real log output
 * (slf4j-simple writes to the standard error stream, which {@link LogCapture} keeps).
 */
class ProfileWarningLogIT {
    private static final String PROFILE = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
            + "{\"decodeScorePolicy\":\"fastest\"}}}}";

    @Test
    void unknownDecodeScorePolicy_loggedOnceNamingFieldValueAndDefault_requestsServed() throws Exception {
        try (LogCapture log = new LogCapture(); TestCluster cluster = new TestCluster()) {
            cluster.pod("prefill-0", SimRole.PREFILL, "group-0", Map.of(), PROFILE)
                    .pod("decode-0", SimRole.DECODE, "group-0", Map.of(), PROFILE).startGateway(Map.of());
            for (int i = 0; i < 3; i++) {
                assertThat(cluster.post("/v1/chat/completions", TestCluster.chat("hello " + i, 4, false))
                        .statusCode()).isEqualTo(200);
            }
            assertThat(log.lines("WARN", "routingConfig.decodeScorePolicy")).as("the warning, once").singleElement()
                    .satisfies(line -> assertThat(line).contains("fastest").contains("using load_balancing"));
        }
    }
}
