package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Passwords and the superuser token live in a Secret: the chart's own, or one the user manages. */
class SecretsTest {

    private static final String TOKEN = "0123456789abcdef0123456789abcdef01234567";

    @Test
    void inlineSecretsGoToTheChartsSecretAndNeverToTheConfigMap() {
        var manifests = RenderedManifests.render(
                "sot",
                null,
                Map.of(
                        "secret.dbPassword", "db-secret-value",
                        "secret.superuserPassword", "superuser-secret-value",
                        "secret.superuserApiToken", TOKEN));

        Secret secret = manifests.secret("sot").orElseThrow();
        assertEquals(
                Map.of(
                        "db-password",
                        "db-secret-value",
                        "superuser-password",
                        "superuser-secret-value",
                        "superuser-api-token",
                        TOKEN),
                RenderedManifests.secretEntries(secret));

        for (ConfigMap configMap : manifests.all(ConfigMap.class)) {
            for (String variable : ServiceContract.SECRET_ENV) {
                assertFalse(configMap.getData().containsKey(variable), variable + " in a ConfigMap");
            }
            for (String value : RenderedManifests.secretEntries(secret).values()) {
                assertFalse(configMap.getData().containsValue(value), "a secret value in a ConfigMap");
            }
        }
        var environment = new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests);
        assertEquals(
                "superuser-api-token",
                environment
                        .source("SUPERUSER_API_TOKEN")
                        .orElseThrow()
                        .secretKey()
                        .getKey());
    }

    @Test
    void anExistingSecretReplacesTheChartsSecret() {
        var manifests = RenderedManifests.of(SotChart.ValuesSet.PRODUCTION);

        assertTrue(manifests.all(Secret.class).isEmpty(), "with existingSecret the chart renders no Secret");
        for (ServiceContract service : ServiceContract.values()) {
            var environment = new ContainerEnvironment(manifests.container(service), manifests);
            var dbPassword = environment.source("DB_PASSWORD").orElseThrow().secretKey();
            assertEquals("sot-credentials", dbPassword.getName());
            assertEquals("password", dbPassword.getKey(), "key names are configurable, e.g. an operator's Secret");
            assertEquals(Boolean.FALSE, dbPassword.getOptional(), "no database password is a deployment error");
        }
        var token = new ContainerEnvironment(manifests.container(ServiceContract.RECORDS_API), manifests)
                .source("SUPERUSER_API_TOKEN")
                .orElseThrow()
                .secretKey();
        assertEquals("sot-credentials", token.getName());
        assertEquals(Boolean.TRUE, token.getOptional(), "a Secret without superuser keys means: no bootstrap");
    }

    @Test
    void aMalformedSuperuserTokenIsRefused() {
        var failure = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render("sot", null, Map.of("secret.superuserApiToken", "not-a-token")));

        assertTrue(
                failure.getMessage().contains("secret.superuserApiToken must be 40 hexadecimal characters"),
                failure.getMessage());
    }
}
