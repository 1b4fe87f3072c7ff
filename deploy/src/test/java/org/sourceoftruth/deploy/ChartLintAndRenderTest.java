package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Helm's lint, and the rendered manifests as a whole: known kinds, known fields, the expected objects. */
class ChartLintAndRenderTest {

    @Test
    void lintPassesInStrictMode() {
        var lint = SotChart.lint();

        List<String> problems = lint.getMessages().stream()
                .filter(message -> message.contains("[WARNING]") || message.contains("[ERROR]"))
                .toList();
        assertFalse(lint.isFailed(), "lint failed: " + lint.getMessages());
        assertEquals(List.of(), problems);
    }

    @ParameterizedTest
    @EnumSource(SotChart.ValuesSet.class)
    void everyDocumentIsAKnownKubernetesKindWithOnlyKnownFields(SotChart.ValuesSet valuesSet) {
        var manifests = RenderedManifests.of(valuesSet);

        assertFalse(manifests.objects.isEmpty(), "the chart rendered nothing");
        for (HasMetadata object : manifests.objects) {
            String id = object.getKind() + "/" + object.getMetadata().getName();
            assertFalse(
                    object instanceof GenericKubernetesResource,
                    id + " (" + object.getApiVersion() + ") is not a kind the Kubernetes model knows");
            assertEquals(List.of(), UnknownFields.in(object), id + " has fields Kubernetes would drop");
        }
    }

    @ParameterizedTest
    @EnumSource(SotChart.ValuesSet.class)
    void rendersTheObjectsBothServicesNeed(SotChart.ValuesSet valuesSet) {
        var manifests = RenderedManifests.of(valuesSet);

        for (ServiceContract service : ServiceContract.values()) {
            String name = manifests.nameOf(service);
            manifests.get(Deployment.class, name);
            manifests.get(Service.class, name);
            manifests.get(PodDisruptionBudget.class, name);
        }
        manifests.get(HorizontalPodAutoscaler.class, manifests.nameOf(ServiceContract.RECORDS_API));
        assertEquals(1, manifests.all(ConfigMap.class).size());
        assertEquals(1, manifests.all(ServiceAccount.class).size());
    }

    @Test
    void renderingIsDeterministic() {
        var again = RenderedManifests.render(SotChart.ValuesSet.DEFAULTS.releaseName, null, Map.of());

        assertEquals(
                RenderedManifests.of(SotChart.ValuesSet.DEFAULTS).yaml,
                again.yaml,
                "rendering must be deterministic (a changing checksum would roll the pods on every upgrade)");
        assertTrue(again.yaml.contains("checksum/config"));
    }
}
