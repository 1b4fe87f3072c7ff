package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The objects of one `helm template` run, unmarshalled into the fabric8 Kubernetes model. */
final class RenderedManifests {

    private static final Map<SotChart.ValuesSet, RenderedManifests> BY_VALUES_SET = new ConcurrentHashMap<>();

    final String releaseName;
    final String yaml;
    final List<HasMetadata> objects;

    private RenderedManifests(String releaseName, String yaml) {
        this.releaseName = releaseName;
        this.yaml = yaml;
        this.objects = parse(yaml);
    }

    /** The shared rendering of a values set; rendering is deterministic, so tests may share it. */
    static RenderedManifests of(SotChart.ValuesSet valuesSet) {
        return BY_VALUES_SET.computeIfAbsent(valuesSet, set -> {
            return new RenderedManifests(set.releaseName, set.render());
        });
    }

    /** Renders with extra values on top of the chart's defaults. */
    static RenderedManifests render(String releaseName, Path valuesFile, Map<String, Object> overrides) {
        return new RenderedManifests(releaseName, SotChart.template(releaseName, valuesFile, overrides));
    }

    private static List<HasMetadata> parse(String yaml) {
        Object parsed = Serialization.unmarshal(yaml);
        if (parsed instanceof List<?> documents) {
            return documents.stream().map(HasMetadata.class::cast).toList();
        }
        return List.of((HasMetadata) parsed);
    }

    /** The name the chart gives one service's Deployment, Service, PDB, HPA and Ingress. */
    String nameOf(ServiceContract service) {
        String fullname = releaseName.contains("sot") ? releaseName : releaseName + "-sot";
        return fullname + "-" + service.component;
    }

    <T extends HasMetadata> List<T> all(Class<T> kind) {
        return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    <T extends HasMetadata> Optional<T> find(Class<T> kind, String name) {
        return all(kind).stream()
                .filter(object -> name.equals(object.getMetadata().getName()))
                .findFirst();
    }

    <T extends HasMetadata> T get(Class<T> kind, String name) {
        return find(kind, name)
                .orElseThrow(() ->
                        new AssertionError("no " + kind.getSimpleName() + " named " + name + " in the rendered chart"));
    }

    Deployment deployment(ServiceContract service) {
        return get(Deployment.class, nameOf(service));
    }

    /** The service's single application container, named after the service. */
    Container container(ServiceContract service) {
        List<Container> containers =
                deployment(service).getSpec().getTemplate().getSpec().getContainers();
        assertEquals(1, containers.size(), service.component + " runs one container");
        Container container = containers.get(0);
        assertEquals(service.component, container.getName());
        return container;
    }

    ConfigMap configMap(String name) {
        return get(ConfigMap.class, name);
    }

    Optional<Secret> secret(String name) {
        return find(Secret.class, name);
    }

    /** The data of a rendered Secret, whether the chart wrote it as stringData or data. */
    static Map<String, String> secretEntries(Secret secret) {
        Map<String, String> entries = secret.getStringData() != null ? secret.getStringData() : secret.getData();
        assertNotNull(entries, "Secret " + secret.getMetadata().getName() + " has data");
        return entries;
    }
}
