package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The optional Ingress routes to the records-api Service's named port. */
class IngressTest {

    @Test
    void noIngressByDefault() {
        assertTrue(RenderedManifests.of(SotChart.ValuesSet.DEFAULTS)
                .all(Ingress.class)
                .isEmpty());
    }

    @Test
    void productionIngressRoutesTheHostToTheRecordsApiService() {
        var manifests = RenderedManifests.of(SotChart.ValuesSet.PRODUCTION);
        String name = manifests.nameOf(ServiceContract.RECORDS_API);
        Ingress ingress = manifests.get(Ingress.class, name);
        Service service = manifests.get(Service.class, name);

        assertEquals("nginx", ingress.getSpec().getIngressClassName());
        assertEquals("sot-tls", ingress.getSpec().getTls().get(0).getSecretName());
        var rule = ingress.getSpec().getRules().get(0);
        assertEquals("sot.example.com", rule.getHost());
        HTTPIngressPath path = rule.getHttp().getPaths().get(0);
        assertEquals("/", path.getPath());
        var backend = path.getBackend().getService();
        assertEquals(service.getMetadata().getName(), backend.getName());
        assertTrue(
                service.getSpec().getPorts().stream()
                        .anyMatch(
                                port -> port.getName().equals(backend.getPort().getName())),
                "the backend port " + backend.getPort().getName() + " is a port of the Service");
    }

    @Test
    void anIngressWithoutHostsIsRefused() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render("sot", null, Map.of("webhookDispatcher.ingress.enabled", true)));

        assertTrue(
                failure.getMessage().contains("webhookDispatcher.ingress.hosts must list at least one host"),
                failure.getMessage());
    }
}
