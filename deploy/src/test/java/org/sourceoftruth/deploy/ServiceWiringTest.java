package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each service's Deployment, Service and PDB, for each values set. */
class ServiceWiringTest {

    static Stream<Arguments> everyServiceWithEveryValuesSet() {
        return Stream.of(SotChart.ValuesSet.values())
                .flatMap(set -> Stream.of(ServiceContract.values()).map(service -> Arguments.of(set, service)));
    }

    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void probesCallTheQuarkusHealthEndpointsOnTheHttpPort(SotChart.ValuesSet set, ServiceContract service) {
        Container container = RenderedManifests.of(set).container(service);

        assertAll(
                () -> assertHttpProbe(container, container.getStartupProbe(), ServiceContract.STARTUP_PATH, service),
                () -> assertHttpProbe(container, container.getLivenessProbe(), ServiceContract.LIVENESS_PATH, service),
                () -> assertHttpProbe(
                        container, container.getReadinessProbe(), ServiceContract.READINESS_PATH, service));
    }

    private static void assertHttpProbe(Container container, Probe probe, String path, ServiceContract service) {
        assertNotNull(probe, "probe for " + path);
        HTTPGetAction get = probe.getHttpGet();
        assertNotNull(get, path + " is probed over HTTP");
        assertEquals(path, get.getPath());
        assertEquals(
                service.managementPort,
                containerPortNumber(container, get.getPort()),
                "port of the " + path + " probe");
        assertTrue(probe.getPeriodSeconds() != null && probe.getPeriodSeconds() > 0, "probe period set");
    }

    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void containerListensOnItsHttpPortAndTheServiceRoutesThere(SotChart.ValuesSet set, ServiceContract service) {
        var manifests = RenderedManifests.of(set);
        Container container = manifests.container(service);
        Service kubernetesService = manifests.get(Service.class, manifests.nameOf(service));

        assertEquals(
                List.of(service.httpPort, service.managementPort),
                container.getPorts().stream()
                        .map(ContainerPort::getContainerPort)
                        .toList());
        assertEquals(
                String.valueOf(service.httpPort),
                new ContainerEnvironment(container, manifests).literal("HTTP_PORT"),
                "HTTP_PORT tells Quarkus the port the Service uses");
        assertEquals(
                String.valueOf(service.managementPort),
                new ContainerEnvironment(container, manifests).literal("MANAGEMENT_PORT"),
                "MANAGEMENT_PORT tells Quarkus the port of the probes and metrics");

        List<ServicePort> ports = kubernetesService.getSpec().getPorts();
        assertEquals(2, ports.size());
        assertEquals("http", ports.get(0).getName());
        assertEquals(
                service.httpPort, containerPortNumber(container, ports.get(0).getTargetPort()));
        assertEquals("management", ports.get(1).getName());
        assertEquals(
                service.managementPort,
                containerPortNumber(container, ports.get(1).getTargetPort()),
                "the management port, for Prometheus");
        assertSelects(kubernetesService.getSpec().getSelector(), podLabels(manifests, service), "the Service");
        for (ServiceContract other : ServiceContract.values()) {
            if (other != service) {
                assertFalse(
                        matches(kubernetesService.getSpec().getSelector(), podLabels(manifests, other)),
                        "the " + service.component + " Service must not route to " + other.component + " pods");
            }
        }
    }

    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void environmentCarriesEverySettingAndSecretsComeFromTheSecret(SotChart.ValuesSet set, ServiceContract service) {
        var manifests = RenderedManifests.of(set);
        var environment = new ContainerEnvironment(manifests.container(service), manifests);

        for (String variable : service.requiredEnv()) {
            assertTrue(environment.has(variable), service.component + " lacks " + variable);
        }
        assertEquals("true", environment.literal("LOG_JSON"), "the chart logs JSON");
        for (String variable : ServiceContract.SECRET_ENV) {
            environment.source(variable).ifPresent(source -> {
                assertTrue(source.fromSecret(), variable + " must come from a Secret, not a literal or ConfigMap");
                manifests
                        .secret(source.secretKey().getName())
                        .ifPresent(secret -> assertTrue(
                                RenderedManifests.secretEntries(secret)
                                        .containsKey(source.secretKey().getKey()),
                                "the chart's Secret has the key "
                                        + source.secretKey().getKey() + " for " + variable));
            });
        }
        if (!service.bootstrapsSuperuser) {
            for (String variable : ServiceContract.SUPERUSER_SECRET_ENV) {
                assertFalse(environment.has(variable), service.component + " has no use for " + variable);
            }
        }
    }

    /** A JVM that ran out of memory exits, and the kubelet starts the container again. */
    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void theJvmExitsAtItsFirstOutOfMemoryError(SotChart.ValuesSet set, ServiceContract service) {
        var manifests = RenderedManifests.of(set);
        var environment = new ContainerEnvironment(manifests.container(service), manifests);
        String options = environment.literal("JAVA_OPTS_APPEND");
        assertTrue(
                options != null && options.contains("-XX:+ExitOnOutOfMemoryError"),
                service.component + " JAVA_OPTS_APPEND: " + options);
        assertTrue(
                options.contains("-Djava.util.logging.manager=org.jboss.logmanager.LogManager"),
                "keeps the image's own setting: " + options);
    }

    /** records-api serves NetBox's background-task API by forwarding to the dispatcher's Service. */
    @ParameterizedTest(name = "{0} values")
    @org.junit.jupiter.params.provider.EnumSource(SotChart.ValuesSet.class)
    void recordsApiReachesTheDispatchersService(SotChart.ValuesSet set) {
        var manifests = RenderedManifests.of(set);
        Service dispatcher = manifests.get(Service.class, manifests.nameOf(ServiceContract.WEBHOOK_DISPATCHER));
        var environment = new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests);

        assertEquals(
                "http://" + dispatcher.getMetadata().getName() + ":"
                        + dispatcher.getSpec().getPorts().get(0).getPort(),
                environment.literal("DISPATCHER_URL"));
    }

    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void runsAsNonRootOnAReadOnlyRootWithoutCapabilities(SotChart.ValuesSet set, ServiceContract service) {
        var manifests = RenderedManifests.of(set);
        PodSpec pod = manifests.deployment(service).getSpec().getTemplate().getSpec();
        PodSecurityContext podSecurity = pod.getSecurityContext();
        SecurityContext security = manifests.container(service).getSecurityContext();
        assertNotNull(security, "container securityContext");

        Boolean runAsNonRoot = security.getRunAsNonRoot() != null
                ? security.getRunAsNonRoot()
                : podSecurity == null ? null : podSecurity.getRunAsNonRoot();
        assertEquals(Boolean.TRUE, runAsNonRoot, "runAsNonRoot");
        assertEquals(Boolean.TRUE, security.getReadOnlyRootFilesystem(), "readOnlyRootFilesystem");
        assertEquals(Boolean.FALSE, security.getAllowPrivilegeEscalation(), "allowPrivilegeEscalation");
        assertNotNull(security.getCapabilities(), "capabilities");
        assertEquals(List.of("ALL"), security.getCapabilities().getDrop(), "drop ALL capabilities");
        assertTrue(
                security.getCapabilities().getAdd() == null
                        || security.getCapabilities().getAdd().isEmpty(),
                "no capability added back");
        assertEquals(
                Boolean.FALSE, pod.getAutomountServiceAccountToken(), "no API token in pods that never call the API");

        // The JVM (hsperfdata) and Vert.x (file cache) write to /tmp: a read-only root needs it writable.
        VolumeMount tmp = manifests.container(service).getVolumeMounts().stream()
                .filter(mount -> "/tmp".equals(mount.getMountPath()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("/tmp is not mounted"));
        Volume volume = pod.getVolumes().stream()
                .filter(v -> v.getName().equals(tmp.getName()))
                .findFirst()
                .orElseThrow();
        assertNotNull(volume.getEmptyDir(), "/tmp is an emptyDir");
    }

    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void resourceRequestsAndMemoryLimitAreSet(SotChart.ValuesSet set, ServiceContract service) {
        var resources = RenderedManifests.of(set).container(service).getResources();

        assertNotNull(resources);
        // The autoscaler's CPU utilization is relative to the CPU request, so it must exist.
        assertNotNull(resources.getRequests().get("cpu"), "cpu request");
        assertNotNull(resources.getRequests().get("memory"), "memory request");
        assertNotNull(resources.getLimits().get("memory"), "memory limit");
    }

    @ParameterizedTest(name = "{1} with {0} values")
    @MethodSource("everyServiceWithEveryValuesSet")
    void podDisruptionBudgetCoversThePodsAndAllowsADrain(SotChart.ValuesSet set, ServiceContract service) {
        var manifests = RenderedManifests.of(set);
        PodDisruptionBudget budget = manifests.get(PodDisruptionBudget.class, manifests.nameOf(service));

        assertSelects(budget.getSpec().getSelector().getMatchLabels(), podLabels(manifests, service), "the PDB");
        assertEquals(
                new IntOrString(1),
                budget.getSpec().getMaxUnavailable(),
                "one pod at a time may go, so even a single replica never blocks a node drain");
    }

    private static Map<String, String> podLabels(RenderedManifests manifests, ServiceContract service) {
        return manifests
                .deployment(service)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getLabels();
    }

    /** A label selector matches the pods when every one of its labels is on them. */
    private static void assertSelects(Map<String, String> selector, Map<String, String> podLabels, String selecting) {
        assertNotNull(selector, selecting + " has a selector");
        assertFalse(selector.isEmpty(), selecting + " has a non-empty selector");
        assertTrue(
                matches(selector, podLabels),
                selecting + " selector " + selector + " matches the pod labels " + podLabels);
    }

    private static boolean matches(Map<String, String> selector, Map<String, String> podLabels) {
        return podLabels.entrySet().containsAll(selector.entrySet());
    }

    /** Resolves a port given by number or by the name of one of the container's ports. */
    static int containerPortNumber(Container container, IntOrString port) {
        assertNotNull(port, "port");
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return container.getPorts().stream()
                .filter(candidate -> port.getStrVal().equals(candidate.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container port named " + port.getStrVal()));
    }
}
