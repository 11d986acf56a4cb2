package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Where a pod publishes events, read from its metadata alone: accepted forms, defaults, and rejected values. */
class KvEventsAnnotationsTest {
    private static final String IP = "10.1.2.3";

    record Scenario(String name, Map<String, String> labels, Map<String, String> annotations, KvEventsEndpoint expected,
            int warnings) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                new Scenario("no annotation: no events", Map.of(), Map.of(), null, 0),
                new Scenario("full endpoints and topic", Map.of(), Map.of(
                        KvEventsAnnotations.ENDPOINT, "tcp://10.9.9.9:5557",
                        KvEventsAnnotations.REPLAY_ENDPOINT, "tcp://10.9.9.9:5558",
                        KvEventsAnnotations.TOPIC, "kv-events"),
                        new KvEventsEndpoint("tcp://10.9.9.9:5557", "tcp://10.9.9.9:5558", "kv-events"), 0),
                // the engine's own bind string, copied over: the wildcard host is the pod's IP
                new Scenario("engine bind string", Map.of(), Map.of(KvEventsAnnotations.ENDPOINT, "tcp://*:5557"),
                        new KvEventsEndpoint("tcp://" + IP + ":5557", null, ""), 0),
                new Scenario("port only, label", Map.of(KvEventsAnnotations.ENDPOINT, "5557",
                        KvEventsAnnotations.REPLAY_ENDPOINT, "5558"), Map.of(),
                        new KvEventsEndpoint("tcp://" + IP + ":5557", "tcp://" + IP + ":5558", ""), 0),
                new Scenario("annotation wins over label", Map.of(KvEventsAnnotations.ENDPOINT, "1111"),
                        Map.of(KvEventsAnnotations.ENDPOINT, ":2222"),
                        new KvEventsEndpoint("tcp://" + IP + ":2222", null, ""), 0),
                new Scenario("not tcp", Map.of(), Map.of(KvEventsAnnotations.ENDPOINT, "ipc:///tmp/kv"), null, 1),
                new Scenario("port out of range", Map.of(), Map.of(KvEventsAnnotations.ENDPOINT, "tcp://*:70000"),
                        null, 1),
                new Scenario("AIBrix's label: its fixed ports on the pod's IP",
                        Map.of(KvEventsAnnotations.ENABLED, "true"), Map.of(),
                        new KvEventsEndpoint("tcp://" + IP + ":5557", "tcp://" + IP + ":5558", ""), 0),
                new Scenario("AIBrix's label beside an endpoint: the endpoint", Map.of(KvEventsAnnotations.ENABLED,
                        "true"), Map.of(KvEventsAnnotations.ENDPOINT, "6000"),
                        new KvEventsEndpoint("tcp://" + IP + ":6000", null, ""), 0),
                new Scenario("AIBrix's label false: no events", Map.of(KvEventsAnnotations.ENABLED, "false"),
                        Map.of(), null, 0),
                new Scenario("bad replay keeps the endpoint", Map.of(), Map.of(KvEventsAnnotations.ENDPOINT, "5557",
                        KvEventsAnnotations.REPLAY_ENDPOINT, "tcp://x:y"),
                        new KvEventsEndpoint("tcp://" + IP + ":5557", null, ""), 1));
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void parse(Scenario s) {
        List<String> warnings = new ArrayList<>();

        KvEventsEndpoint endpoint = KvEventsAnnotations.parse("ns/pod", IP, s.labels(), s.annotations(), warnings);

        assertThat(endpoint).isEqualTo(s.expected());
        assertThat(warnings).hasSize(s.warnings());
    }

    @ParameterizedTest
    @MethodSource("ipv6")
    void ipv6PodIp_isBracketed(String podIp, String expected) {
        assertThat(KvEventsAnnotations.address("5557", podIp)).isEqualTo(expected);
    }

    static Stream<Arguments> ipv6() {
        return Stream.of(Arguments.of("fd00::7", "tcp://[fd00::7]:5557"),
                Arguments.of("", null));
    }
}
