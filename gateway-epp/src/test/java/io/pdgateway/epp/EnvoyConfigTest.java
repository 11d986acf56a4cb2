package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.pdgateway.core.config.Knobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deploy/envoy/envoy.yaml is a valid Envoy bootstrap: read through protobuf's JsonFormat into the Envoy API's own
 * messages (an unknown field, a misspelt enum value or a wrong type fails), and it wires what the picker needs: the
 * ext_proc filter before the router, failing closed, BUFFERED request bodies, response headers, body and trailers sent,
 * a message timeout above the prefill timeout, an HTTP/2 cluster for the picker, and an ORIGINAL_DST cluster that
 * honours the protocol's destination header.
 */
class EnvoyConfigTest {
    private static final Path CONFIG = Path.of("..", "deploy", "envoy", "envoy.yaml");
    private static final JsonFormat.TypeRegistry TYPES = JsonFormat.TypeRegistry.newBuilder()
            .add(HttpConnectionManager.getDescriptor()).add(ExternalProcessor.getDescriptor())
            .add(Router.getDescriptor()).add(HttpProtocolOptions.getDescriptor()).build();

    private static Bootstrap parse(String yaml) throws Exception {
        String json = new ObjectMapper().writeValueAsString(new ObjectMapper(new YAMLFactory()).readTree(yaml));
        Bootstrap.Builder bootstrap = Bootstrap.newBuilder();
        JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, bootstrap);
        return bootstrap.build();
    }

    private static Cluster cluster(Bootstrap bootstrap, String name) {
        return bootstrap.getStaticResources().getClustersList().stream().filter(c -> c.getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no cluster " + name));
    }

    @Test
    void exampleConfig_parsesAsABootstrap_andWiresThePicker() throws Exception {
        Bootstrap bootstrap = parse(Files.readString(CONFIG));
        Filter network = bootstrap.getStaticResources().getListeners(0).getFilterChains(0).getFilters(0);
        HttpConnectionManager hcm = network.getTypedConfig().unpack(HttpConnectionManager.class);
        List<HttpFilter> filters = hcm.getHttpFiltersList();
        assertThat(filters).extracting(HttpFilter::getName)
                .containsExactly("envoy.filters.http.ext_proc", "envoy.filters.http.router");

        ExternalProcessor extProc = filters.get(0).getTypedConfig().unpack(ExternalProcessor.class);
        assertThat(extProc.getFailureModeAllow()).isFalse();
        ProcessingMode mode = extProc.getProcessingMode();
        assertThat(mode.getRequestHeaderMode()).isEqualTo(ProcessingMode.HeaderSendMode.SEND);
        assertThat(mode.getRequestBodyMode()).isEqualTo(ProcessingMode.BodySendMode.BUFFERED);
        assertThat(mode.getResponseHeaderMode()).isEqualTo(ProcessingMode.HeaderSendMode.SEND);
        assertThat(mode.getResponseBodyMode()).isEqualTo(ProcessingMode.BodySendMode.STREAMED);
        assertThat(mode.getResponseTrailerMode()).isEqualTo(ProcessingMode.HeaderSendMode.SEND);
        assertThat(Durations.toMillis(extProc.getMessageTimeout())).as("the picker holds the body during the prefill")
                .isGreaterThan(Math.round(Knobs.PREFILL_REQUEST_TIMEOUT.fallback() * 1000));

        Cluster picker = cluster(bootstrap, extProc.getGrpcService().getEnvoyGrpc().getClusterName());
        HttpProtocolOptions h2 = picker.getTypedExtensionProtocolOptionsOrThrow(
                "envoy.extensions.upstreams.http.v3.HttpProtocolOptions").unpack(HttpProtocolOptions.class);
        assertThat(h2.getExplicitHttpConfig().hasHttp2ProtocolOptions()).as("gRPC needs HTTP/2").isTrue();

        String podsCluster = hcm.getRouteConfig().getVirtualHosts(0).getRoutes(0).getRoute().getCluster();
        Cluster pods = cluster(bootstrap, podsCluster);
        assertThat(pods.getType()).isEqualTo(Cluster.DiscoveryType.ORIGINAL_DST);
        assertThat(pods.getLbPolicy()).isEqualTo(Cluster.LbPolicy.CLUSTER_PROVIDED);
        assertThat(pods.getOriginalDstLbConfig().getUseHttpHeader()).isTrue();
        assertThat(pods.getOriginalDstLbConfig().getHttpHeaderName()).isEqualTo(EppProtocol.DESTINATION_ENDPOINT);
    }

    @Test
    void misspeltExtProcField_rejected() throws Exception {
        String config = Files.readString(CONFIG).replace("failure_mode_allow:", "failure_mode_allowed:");
        assertThatThrownBy(() -> parse(config)).isInstanceOf(InvalidProtocolBufferException.class)
                .hasMessageContaining("failure_mode_allowed");
    }

    @Test
    void unknownBodyMode_rejected() throws Exception {
        String config = Files.readString(CONFIG).replace("request_body_mode: BUFFERED", "request_body_mode: BUFFER");
        assertThatThrownBy(() -> parse(config)).isInstanceOf(InvalidProtocolBufferException.class);
    }
}
