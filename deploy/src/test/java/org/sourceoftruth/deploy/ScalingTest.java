package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * records-api scales horizontally behind its Service (an HPA owns its replica count); the
 * dispatcher scales with the partitions of records.object-changes, so its count is fixed and capped.
 */
class ScalingTest {

    private static final ServiceContract API = ServiceContract.RECORDS_API;
    private static final ServiceContract DISPATCHER = ServiceContract.WEBHOOK_DISPATCHER;

    @ParameterizedTest(name = "{0} values: {1}..{2} replicas at {3}% CPU")
    @CsvSource({"DEFAULTS, 2, 10, 70", "PRODUCTION, 3, 20, 60"})
    void autoscalerOwnsTheRecordsApiReplicaCount(SotChart.ValuesSet set, int min, int max, int cpuPercent) {
        var manifests = RenderedManifests.of(set);
        HorizontalPodAutoscaler autoscaler = manifests.get(HorizontalPodAutoscaler.class, manifests.nameOf(API));
        Deployment deployment = manifests.deployment(API);

        var target = autoscaler.getSpec().getScaleTargetRef();
        assertEquals("apps/v1", target.getApiVersion());
        assertEquals("Deployment", target.getKind());
        assertEquals(deployment.getMetadata().getName(), target.getName());
        assertEquals(min, autoscaler.getSpec().getMinReplicas());
        assertEquals(max, autoscaler.getSpec().getMaxReplicas());
        MetricSpec metric = autoscaler.getSpec().getMetrics().get(0);
        assertEquals("cpu", metric.getResource().getName());
        assertEquals(cpuPercent, metric.getResource().getTarget().getAverageUtilization());
        assertNull(deployment.getSpec().getReplicas(), "an upgrade must not reset what the autoscaler chose");
    }

    @Test
    void withoutAutoscalingTheRecordsApiRunsTheConfiguredReplicas() {
        var manifests = RenderedManifests.render(
                "sot", null, Map.of("recordsApi.autoscaling.enabled", false, "recordsApi.replicaCount", 3));

        assertTrue(manifests
                .find(HorizontalPodAutoscaler.class, manifests.nameOf(API))
                .isEmpty());
        assertEquals(3, manifests.deployment(API).getSpec().getReplicas());
    }

    @ParameterizedTest(name = "{0} values: {1} dispatcher replicas")
    @CsvSource({"DEFAULTS, 1", "PRODUCTION, 4"})
    void dispatcherRunsAFixedCountWithinThePartitions(SotChart.ValuesSet set, int replicas) {
        var manifests = RenderedManifests.of(set);
        var environment = new ContainerEnvironment(manifests.container(DISPATCHER), manifests);

        assertEquals(replicas, manifests.deployment(DISPATCHER).getSpec().getReplicas());
        assertTrue(
                replicas <= Integer.parseInt(environment.literal("KAFKA_PARTITIONS")),
                "a consumer group gives each partition to one replica; more replicas than partitions idle");
        assertEquals(1, manifests.all(HorizontalPodAutoscaler.class).size(), "only records-api autoscales");
    }

    @Test
    void moreDispatcherReplicasThanPartitionsIsRefused() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render(
                        "sot", null, Map.of("kafka.partitions", 3, "webhookDispatcher.replicaCount", 4)));

        assertTrue(
                failure.getMessage().contains("webhookDispatcher.replicaCount (4) exceeds kafka.partitions (3)"),
                failure.getMessage());
    }
}
