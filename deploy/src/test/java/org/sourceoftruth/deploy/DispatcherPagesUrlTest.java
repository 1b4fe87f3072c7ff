package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The web interface links superusers to the dispatcher's pages at DISPATCHER_PAGES_URL: the chart
 * sets it to an address browsers reach (the value given, or the dispatcher's Ingress), never to
 * the in-cluster Service, which is what records-api falls back to when it is unset.
 */
class DispatcherPagesUrlTest {

    private static String pagesUrl(Map<String, Object> overrides) {
        var manifests = RenderedManifests.render("sot", null, overrides);
        var environment = new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests);
        return environment.has("DISPATCHER_PAGES_URL") ? environment.literal("DISPATCHER_PAGES_URL") : null;
    }

    private static Map<String, Object> dispatcherIngress(boolean tls) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("webhookDispatcher.ingress.enabled", true);
        values.put("webhookDispatcher.ingress.hosts[0].host", "ops.example.com");
        values.put("webhookDispatcher.ingress.hosts[0].paths[0].path", "/");
        values.put("webhookDispatcher.ingress.hosts[0].paths[0].pathType", "Prefix");
        if (tls) {
            values.put("webhookDispatcher.ingress.tls[0].secretName", "ops-tls");
            values.put("webhookDispatcher.ingress.tls[0].hosts[0]", "ops.example.com");
        }
        return values;
    }

    @Test
    void unsetWithoutAnIngressOfTheDispatcher() {
        assertEquals(null, pagesUrl(Map.of()));
    }

    @Test
    void theDispatchersIngressHostIsTheAddressWithHttpsWhenItHasTls() {
        assertEquals("https://ops.example.com", pagesUrl(dispatcherIngress(true)));
        assertEquals("http://ops.example.com", pagesUrl(dispatcherIngress(false)));
    }

    @Test
    void anAddressGivenWins() {
        Map<String, Object> values = dispatcherIngress(true);
        values.put("webhookDispatcher.pagesUrl", "http://127.0.0.1:8081");
        String url = pagesUrl(values);
        assertEquals("http://127.0.0.1:8081", url);
        assertFalse(url.contains("svc"), url);
    }
}
