package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HTTPGetActionBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unknown-field walk that the render tests rely on does find misspelt keys, however deep. */
class UnknownFieldsTest {

    @Test
    void findsAFieldTheModelKeptAsAdditionalProperty() {
        var probe = new HTTPGetActionBuilder().withPath("/q/health/live").build();
        probe.setAdditionalProperty("paht", "/q/health/ready");
        Deployment deployment = new DeploymentBuilder()
                .withNewMetadata()
                .withName("x")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .addToContainers(new ContainerBuilder()
                        .withName("app")
                        .withNewLivenessProbe()
                        .withHttpGet(probe)
                        .endLivenessProbe()
                        .build())
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();

        assertEquals(
                List.of("spec.template.spec.containers[0].livenessProbe.httpGet.paht"), UnknownFields.in(deployment));
    }

    @Test
    void findsMisspeltKeysThatUserValuesSmuggleIntoTheRenderedChart(@TempDir Path directory) throws IOException {
        Path values = Files.writeString(directory.resolve("typos.yaml"), """
                recordsApi:
                  extraEnv:
                    - name: JAVA_OPTS_APPEND
                      valu: "-Xss1m"
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                          - matchExpresions:
                              - {key: zone, operator: In, values: [a]}
                """);
        var manifests = RenderedManifests.render("sot", values, Map.of());

        List<String> unknown = UnknownFields.in(manifests.deployment(ServiceContract.RECORDS_API));

        String pod = "spec.template.spec.";
        assertEquals(
                List.of(
                        pod
                                + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpresions",
                        // after HTTP_PORT, MANAGEMENT_PORT and the three Secret variables
                        pod + "containers[0].env[5].valu"),
                unknown.stream().sorted().toList());
    }
}
