package io.pdgateway.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.PodObject;
import io.pdgateway.core.model.PodObjectReader;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecLabels;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file under deploy/ parses as Kubernetes objects (fabric8 loads them as kubectl would), and the engine pod
 * templates carry what the gateway reads: run through the same conversion as informer pods, each file must give one
 * engine, a complete prefill/decode roleset and a standard pod.
 */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("..", "deploy");
    private static final Set<String> ENGINES = Set.of("vllm", "sglang", "trtllm");
    private static KubernetesClient client;

    @BeforeAll
    static void parserOnly() {
        // Never connects: used only to load YAML into model objects.
        client = new KubernetesClientBuilder().withConfig(Config.empty()).build();
    }

    @AfterAll
    static void close() {
        client.close();
    }

    static Stream<Path> manifests() throws IOException {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            // deploy/envoy holds an Envoy bootstrap, not Kubernetes objects (gateway-epp's EnvoyConfigTest checks it).
            List<Path> yaml = files.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.startsWith(DEPLOY.resolve("envoy"))).sorted().toList();
            assertThat(yaml).as("manifests under " + DEPLOY.toAbsolutePath()).isNotEmpty();
            return yaml.stream();
        }
    }

    static Stream<Path> engineManifests() throws IOException {
        return manifests().filter(p -> p.getParent().getFileName().toString().equals("engines"));
    }

    private static List<HasMetadata> load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return client.load(in).items();
        }
    }

    private static <T> List<T> ofKind(Path file, Class<T> type) throws IOException {
        return load(file).stream().filter(type::isInstance).map(type::cast).toList();
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void everyManifest_parsesIntoNamedObjects(Path file) throws IOException {
        List<HasMetadata> objects = load(file);
        assertThat(objects).as(file.toString()).isNotEmpty();
        for (HasMetadata object : objects) {
            assertThat(object.getApiVersion()).as(file + ": apiVersion").isNotBlank();
            assertThat(object.getKind()).as(file + ": kind").isNotBlank();
            assertThat(object.getMetadata().getName()).as(file + ": metadata.name").isNotBlank();
        }
    }

    /** A Ready pod made from a Deployment's template, as the informer would see it once scheduled. */
    private static Pod scheduled(PodTemplateSpec template, int index) {
        return new PodBuilder().withMetadata(template.getMetadata()).editMetadata().withNamespace("ns")
                .withName(template.getMetadata().getLabels().get("app") + "-" + index).endMetadata()
                .withSpec(template.getSpec()).withNewStatus().withPodIP("10.0.0." + index)
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    @ParameterizedTest
    @MethodSource("engineManifests")
    void engineTemplates_carryTheLabelsTheGatewayReads(Path file) throws IOException {
        List<Deployment> deployments = ofKind(file, Deployment.class);
        List<io.pdgateway.core.model.Pod> pods = new ArrayList<>();
        for (Deployment deployment : deployments) {
            PodTemplateSpec template = deployment.getSpec().getTemplate();
            Map<String, String> labels = template.getMetadata().getLabels();
            assertThat(labels).as(file + " " + deployment.getMetadata().getName())
                    .containsKeys(SpecLabels.MODEL_NAME, SpecLabels.PORT, SpecLabels.ENGINE);
            assertThat(ENGINES).contains(labels.get(SpecLabels.ENGINE));
            List<String> warnings = new ArrayList<>();
            io.pdgateway.core.model.Pod pod = PodObjectReader.toPod(
                    KubernetesPodObjects.of(scheduled(template, pods.size() + 1)), warnings);
            assertThat(warnings).as(file + " " + deployment.getMetadata().getName()).isEmpty();
            assertThat(pod).as("routable").isNotNull();
            assertThat(pod.config()).as("model.aibrix.ai/config parses").isNotNull();
            Container engine = template.getSpec().getContainers().get(0);
            assertThat(engine.getPorts().stream().map(ContainerPort::getContainerPort))
                    .as("model.aibrix.ai/port is a container port").contains(pod.port());
            if ("sglang".equals(pod.engine()) && pod.role() == PodRole.PREFILL) {
                assertThat(template.getMetadata().getAnnotations()).containsKey(SpecLabels.SGLANG_BOOTSTRAP_PORT);
                assertThat(engine.getPorts().stream().map(ContainerPort::getContainerPort))
                        .as("the bootstrap port is a container port").contains(pod.sglangBootstrapPort());
            }
            pods.add(pod);
        }
        ModelPods model = ClusterSnapshot.of(pods).models().iterator().next();
        assertThat(ClusterSnapshot.of(pods).models()).as("one model per file").hasSize(1);
        assertThat(model.engines()).as("one engine per model").hasSize(1);
        assertThat(model.rolesets().values()).as("rolesets").isNotEmpty().allMatch(Roleset::isComplete);
        assertThat(model.pods()).as("a standard pod").anyMatch(p -> p.isStandard(null));
    }

    private static Set<String> specEnvNames() throws IllegalAccessException {
        Set<String> names = new java.util.HashSet<>();
        for (Field field : SpecEnv.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                names.add((String) field.get(null));
            }
        }
        return names;
    }

    @Test
    void gatewayDeployment_probesDrainAndEnvironment() throws Exception {
        Deployment deployment = ofKind(DEPLOY.resolve("gateway-deployment.yaml"), Deployment.class).get(0);
        var pod = deployment.getSpec().getTemplate().getSpec();
        Container gateway = pod.getContainers().get(0);
        assertThat(gateway.getArgs()).contains("serve", "--kubernetes");
        assertThat(gateway.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(gateway.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(gateway.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(gateway.getLivenessProbe().getInitialDelaySeconds()).as("the startup probe covers the start")
                .isNull();
        assertThat(gateway.getResources().getRequests()).containsKeys("cpu", "memory");

        Map<String, String> env = gateway.getEnv().stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
        Set<String> known = specEnvNames();
        assertThat(env.keySet().stream().filter(n -> n.startsWith("AIBRIX_") || n.startsWith("PD_GATEWAY_")))
                .as("spelled as the spec spells them").isNotEmpty().allMatch(known::contains);
        int grace = Integer.parseInt(env.get(SpecEnv.DRAIN_GRACE_SECONDS));
        // The image has no shell or sleep binary: the kubelet's own sleep action, never an exec.
        assertThat(gateway.getLifecycle().getPreStop().getExec()).isNull();
        long preStop = gateway.getLifecycle().getPreStop().getSleep().getSeconds();
        assertThat(pod.getTerminationGracePeriodSeconds()).as("kubelet waits for preStop and the drain")
                .isGreaterThan((long) preStop + grace);

        // The JVM (and so the event loops) sees the CPUs the pod requests, not every core of its node.
        List<String> names = gateway.getEnv().stream().map(EnvVar::getName).toList();
        EnvVar cpus = gateway.getEnv().stream().filter(e -> e.getValueFrom() != null
                && e.getValueFrom().getResourceFieldRef() != null).findFirst().orElseThrow();
        assertThat(cpus.getValueFrom().getResourceFieldRef().getResource()).isEqualTo("requests.cpu");
        assertThat(env.get("JAVA_TOOL_OPTIONS")).isEqualTo("-XX:ActiveProcessorCount=$(" + cpus.getName() + ")");
        assertThat(names.indexOf(cpus.getName())).as("Kubernetes expands only variables defined before")
                .isLessThan(names.indexOf("JAVA_TOOL_OPTIONS"));

        Service service = ofKind(DEPLOY.resolve("gateway-service.yaml"), Service.class).get(0);
        assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        String targetPort = service.getSpec().getPorts().get(0).getTargetPort().getStrVal();
        assertThat(gateway.getPorts()).anyMatch(p -> targetPort.equals(p.getName()));
    }

    @Test
    void rbac_grantsGetListWatchOnPods() throws IOException {
        List<PolicyRule> rules = new ArrayList<>();
        ofKind(DEPLOY.resolve("rbac-namespaced.yaml"), Role.class).forEach(r -> rules.addAll(r.getRules()));
        assertThat(rules).hasSize(1);
        ofKind(DEPLOY.resolve("rbac-cluster.yaml"), ClusterRole.class).forEach(r -> rules.addAll(r.getRules()));
        assertThat(rules).hasSize(2).allSatisfy(rule -> {
            assertThat(rule.getResources()).containsExactly("pods");
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
        });
    }
}
