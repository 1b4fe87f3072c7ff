package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** image.variant runs either build of the services: the JVM images or the native executables. */
class ImageVariantTest {

    @Test
    void theJvmVariantIsTheDefault() {
        var manifests = RenderedManifests.render("sot", null, Map.of());

        Container api = manifests.container(ServiceContract.RECORDS_API);
        assertEquals("sourceoftruth/records-api:0.1.0", api.getImage());
        assertEquals("768Mi", api.getResources().getLimits().get("memory").toString());
        Container dispatcher = manifests.container(ServiceContract.WEBHOOK_DISPATCHER);
        assertEquals("sourceoftruth/webhook-dispatcher:0.1.0", dispatcher.getImage());
        assertEquals(
                "512Mi", dispatcher.getResources().getLimits().get("memory").toString());
    }

    @Test
    void theNativeVariantRunsTheNativeImagesWithTheirResources() {
        var manifests = RenderedManifests.render("sot", null, Map.of("image.variant", "native"));

        Container api = manifests.container(ServiceContract.RECORDS_API);
        assertEquals("sourceoftruth/records-api:0.1.0-native", api.getImage());
        assertEquals("384Mi", api.getResources().getLimits().get("memory").toString());
        assertEquals("192Mi", api.getResources().getRequests().get("memory").toString());
        Container dispatcher = manifests.container(ServiceContract.WEBHOOK_DISPATCHER);
        assertEquals("sourceoftruth/webhook-dispatcher:0.1.0-native", dispatcher.getImage());
        assertEquals(
                "320Mi", dispatcher.getResources().getLimits().get("memory").toString());
    }

    @Test
    void anExplicitTagWinsOverTheVariantsDefault() {
        var manifests = RenderedManifests.render(
                "sot", null, Map.of("image.variant", "native", "recordsApi.image.tag", "1.2.3-native-rc1"));

        assertEquals(
                "sourceoftruth/records-api:1.2.3-native-rc1",
                manifests.container(ServiceContract.RECORDS_API).getImage());
    }

    @Test
    void anUnknownVariantIsRefused() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render("sot", null, Map.of("image.variant", "graal")));

        assertTrue(failure.getMessage().contains("image.variant must be jvm or native"), failure.getMessage());
    }
}
