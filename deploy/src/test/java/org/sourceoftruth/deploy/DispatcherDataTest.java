package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * webhook-dispatcher owns its data: it reaches records-api through its Service with an
 * API token from the Secret, and may run with a database role and database of its own while
 * records-api keeps the shared ones.
 */
class DispatcherDataTest {

    private static final Map<String, Object> OWN_ROLE = Map.of(
            "webhookDispatcher.database.user", "sot_dispatcher",
            "webhookDispatcher.database.name", "sot_dispatcher",
            "secret.dispatcherDbPassword", "dispatcher-secret-value");

    @ParameterizedTest(name = "{0} values")
    @EnumSource(SotChart.ValuesSet.class)
    void theDispatcherCallsRecordsApisServiceWithATokenFromTheSecret(SotChart.ValuesSet set) {
        var manifests = RenderedManifests.of(set);
        Service recordsApi = manifests.get(Service.class, manifests.nameOf(ServiceContract.RECORDS_API));
        var dispatcher = new ContainerEnvironment(manifests.container(ServiceContract.WEBHOOK_DISPATCHER), manifests);

        assertEquals(
                "http://" + recordsApi.getMetadata().getName() + ":"
                        + recordsApi.getSpec().getPorts().get(0).getPort(),
                dispatcher.literal("RECORDS_API_SERVICE_URL"));
        var token = dispatcher.source("RECORDS_API_TOKEN").orElseThrow().secretKey();
        assertEquals("superuser-api-token", token.getKey(), "by default the bootstrapped superuser's token");
        assertEquals(Boolean.FALSE, token.getOptional(), "without a token the dispatcher could never read its rules");
        assertFalse(new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests)
                .has("RECORDS_API_TOKEN"));
    }

    @ParameterizedTest(name = "{0} values")
    @EnumSource(SotChart.ValuesSet.class)
    void byDefaultBothServicesShareTheDatabaseSettings(SotChart.ValuesSet set) {
        var manifests = RenderedManifests.of(set);
        var recordsApi = new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests);
        var dispatcher = new ContainerEnvironment(manifests.container(ServiceContract.WEBHOOK_DISPATCHER), manifests);
        for (String variable : new String[] {"DB_NAME", "DB_USER"}) {
            assertEquals(recordsApi.literal(variable), dispatcher.literal(variable), variable);
        }
        assertEquals(
                recordsApi.source("DB_PASSWORD").orElseThrow().secretKey(),
                dispatcher.source("DB_PASSWORD").orElseThrow().secretKey());
    }

    @Test
    void theDispatcherMayHaveARoleAndDatabaseOfItsOwn() {
        var manifests = RenderedManifests.render("sot", null, OWN_ROLE);
        var recordsApi = new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests);
        var dispatcher = new ContainerEnvironment(manifests.container(ServiceContract.WEBHOOK_DISPATCHER), manifests);

        assertEquals("sot_dispatcher", dispatcher.literal("DB_USER"));
        assertEquals("sot_dispatcher", dispatcher.literal("DB_NAME"));
        assertEquals(
                "dispatcher-db-password",
                dispatcher.source("DB_PASSWORD").orElseThrow().secretKey().getKey());
        assertEquals("sot", recordsApi.literal("DB_USER"), "records-api keeps postgresql.user");
        assertEquals("sot", recordsApi.literal("DB_NAME"));
        assertEquals(
                "db-password",
                recordsApi.source("DB_PASSWORD").orElseThrow().secretKey().getKey());

        var secret = RenderedManifests.secretEntries(manifests.secret("sot").orElseThrow());
        assertEquals("dispatcher-secret-value", secret.get("dispatcher-db-password"));
        for (ConfigMap configMap : manifests.all(ConfigMap.class)) {
            assertFalse(configMap.getData().containsValue("dispatcher-secret-value"), "a secret value in a ConfigMap");
        }
    }

    @Test
    void anExistingSecretNamesTheDispatchersKeys() {
        var manifests = RenderedManifests.render(
                "sot",
                SotChart.PRODUCTION_VALUES,
                Map.of(
                        "webhookDispatcher.database.user", "sot_dispatcher",
                        "secret.keys.dispatcherDbPassword", "dispatcher-password",
                        "secret.keys.dispatcherApiToken", "dispatcher-token"));
        var dispatcher = new ContainerEnvironment(manifests.container(ServiceContract.WEBHOOK_DISPATCHER), manifests);

        assertTrue(manifests.all(io.fabric8.kubernetes.api.model.Secret.class).isEmpty());
        assertEquals(
                "sot-credentials",
                dispatcher.source("DB_PASSWORD").orElseThrow().secretKey().getName());
        assertEquals(
                "dispatcher-password",
                dispatcher.source("DB_PASSWORD").orElseThrow().secretKey().getKey());
        assertEquals(
                "dispatcher-token",
                dispatcher.source("RECORDS_API_TOKEN").orElseThrow().secretKey().getKey());
        assertEquals("sot", dispatcher.literal("DB_NAME"), "no database of its own: postgresql.database");
    }

    @Test
    void anOwnRoleWithoutItsPasswordIsRefused() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render(
                        "sot", null, Map.of("webhookDispatcher.database.user", "sot_dispatcher")));

        assertTrue(
                failure.getMessage()
                        .contains(
                                "secret.dispatcherDbPassword is required when webhookDispatcher.database.user is set"),
                failure.getMessage());
    }
}
