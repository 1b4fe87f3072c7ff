package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.ServiceEndpoints;

/**
 * What a platform team runs beside the services: ServiceMonitors, NetworkPolicies, the topic
 * Job, Kafka security, secure cookies, the dispatcher's records-api URL and the Grafana dashboard.
 */
class OperationsTest {

    @Test
    void defaultsRenderTheTopicJobButNoMonitorPolicyOrDashboard() {
        var manifests = RenderedManifests.of(SotChart.ValuesSet.DEFAULTS);
        assertTrue(manifests.all(NetworkPolicy.class).isEmpty());
        assertTrue(manifests.all(GenericKubernetesResource.class).stream()
                .noneMatch(o -> "ServiceMonitor".equals(o.getKind())));
        assertTrue(manifests.find(ConfigMap.class, "sot-dashboard").isEmpty());
        Map<String, String> config = manifests.configMap("sot-config").getData();
        assertEquals("PLAINTEXT", config.get("KAFKA_SECURITY_PROTOCOL"));
        assertEquals("false", config.get("SESSION_COOKIE_SECURE"));
        assertEquals("http://sot-records-api:8080", config.get("RECORDS_API_SERVICE_URL"));
        assertFalse(config.containsKey("KAFKA_SASL_MECHANISM"));
        assertEquals(1, manifests.all(Job.class).size());
    }

    @Test
    void serviceMonitorsScrapeTheMetricsPathOfEachServicesHttpPort() {
        var manifests = RenderedManifests.render(
                "sot",
                null,
                Map.of("metrics.serviceMonitor.enabled", true, "metrics.serviceMonitor.labels.release", "prometheus"));
        var monitors = manifests.all(GenericKubernetesResource.class).stream()
                .filter(o -> "ServiceMonitor".equals(o.getKind()))
                .toList();
        assertEquals(2, monitors.size());
        for (ServiceContract service : ServiceContract.values()) {
            String name = manifests.nameOf(service);
            GenericKubernetesResource monitor = monitors.stream()
                    .filter(m -> m.getMetadata().getName().equals(name))
                    .findFirst()
                    .orElseThrow();
            assertEquals("monitoring.coreos.com/v1", monitor.getApiVersion());
            assertEquals("prometheus", monitor.getMetadata().getLabels().get("release"));
            Service target = manifests.get(Service.class, name);
            Map<?, ?> spec = (Map<?, ?>) monitor.getAdditionalProperties().get("spec");
            Map<?, ?> selector = (Map<?, ?>) ((Map<?, ?>) spec.get("selector")).get("matchLabels");
            assertTrue(
                    target.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()),
                    "the monitor selects the Service " + name);
            Map<?, ?> endpoint = (Map<?, ?>) ((List<?>) spec.get("endpoints")).get(0);
            assertEquals(ServiceEndpoints.METRICS_PATH, endpoint.get("path"));
            assertTrue(
                    target.getSpec().getPorts().stream()
                            .anyMatch(p -> p.getName().equals(endpoint.get("port"))),
                    "the endpoint's port is a port of the Service");
        }
    }

    @Test
    void networkPoliciesAdmitTheApiAndOnlyRecordsApiToTheDispatcher() {
        var manifests = RenderedManifests.render(
                "sot",
                null,
                Map.of(
                        "networkPolicy.enabled",
                        true,
                        "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.name",
                        "monitoring"));
        NetworkPolicy api = manifests.get(NetworkPolicy.class, manifests.nameOf(ServiceContract.RECORDS_API));
        NetworkPolicy dispatcher =
                manifests.get(NetworkPolicy.class, manifests.nameOf(ServiceContract.WEBHOOK_DISPATCHER));
        Map<String, String> apiPods = manifests
                .deployment(ServiceContract.RECORDS_API)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getLabels();
        Map<String, String> dispatcherPods = manifests
                .deployment(ServiceContract.WEBHOOK_DISPATCHER)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getLabels();

        assertTrue(apiPods.entrySet()
                .containsAll(api.getSpec().getPodSelector().getMatchLabels().entrySet()));
        assertTrue(dispatcherPods
                .entrySet()
                .containsAll(
                        dispatcher.getSpec().getPodSelector().getMatchLabels().entrySet()));
        assertTrue(api.getSpec().getIngress().get(0).getFrom().isEmpty(), "the API is open to every source by default");
        var fromRecordsApi = dispatcher.getSpec().getIngress().get(0).getFrom();
        assertEquals(1, fromRecordsApi.size());
        assertTrue(
                apiPods.entrySet()
                        .containsAll(fromRecordsApi
                                .get(0)
                                .getPodSelector()
                                .getMatchLabels()
                                .entrySet()),
                "the dispatcher admits records-api's pods");
        assertFalse(
                dispatcherPods
                        .entrySet()
                        .containsAll(fromRecordsApi
                                .get(0)
                                .getPodSelector()
                                .getMatchLabels()
                                .entrySet()),
                "and not its own");
        for (NetworkPolicy policy : List.of(api, dispatcher)) {
            assertEquals(
                    "monitoring",
                    policy.getSpec()
                            .getIngress()
                            .get(1)
                            .getFrom()
                            .get(0)
                            .getNamespaceSelector()
                            .getMatchLabels()
                            .get("name"),
                    "metrics scraping admitted");
        }
    }

    @Test
    void topicJobCreatesTheTopicWithThePartitionsAndEventSizeOfTheValues() {
        var manifests = RenderedManifests.render(
                "sot",
                null,
                Map.of("kafka.partitions", 12, "kafka.maxEventBytes", 1048576, "kafka.topicJob.replicationFactor", 2));
        Job job = topicJob(manifests);
        assertTrue(
                job.getMetadata().getName().startsWith("sot-kafka-topic-"),
                job.getMetadata().getName());
        assertFalse(
                job.getMetadata()
                        .getName()
                        .equals(topicJob(RenderedManifests.of(SotChart.ValuesSet.DEFAULTS))
                                .getMetadata()
                                .getName()),
                "other settings, another Job (a Job's pod template cannot change)");
        Container container =
                job.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> env =
                new HashMap<>(manifests.configMap("sot-config").getData());
        container.getEnv().stream().filter(v -> v.getValue() != null).forEach(v -> env.put(v.getName(), v.getValue()));
        assertEquals("12", env.get("KAFKA_PARTITIONS"));
        assertEquals("2", env.get("REPLICATION_FACTOR"));
        assertEquals(String.valueOf(1048576 + 16384), env.get("MAX_MESSAGE_BYTES"));
        assertEquals("records.object-changes", env.get("TOPIC"));
        String script = container.getCommand().get(2);
        assertTrue(script.contains("--create --if-not-exists --topic \"$TOPIC\""), script);
        assertTrue(script.contains("--partitions \"$KAFKA_PARTITIONS\""), script);
        assertTrue(script.contains("max.message.bytes=\"$MAX_MESSAGE_BYTES\""), script);
        assertTrue(RenderedManifests.render("sot", null, Map.of("kafka.topicJob.enabled", false))
                .all(Job.class)
                .isEmpty());
    }

    @Test
    void kafkaSaslAndTlsReachBothServicesAndTheTopicJob() {
        var manifests = RenderedManifests.render(
                "sot",
                null,
                Map.of(
                        "kafka.securityProtocol",
                        "SASL_SSL",
                        "kafka.saslMechanism",
                        "SCRAM-SHA-512",
                        "kafka.truststoreSecret",
                        "kafka-ca",
                        "secret.kafkaSaslJaasConfig",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;"));
        Map<String, String> config = manifests.configMap("sot-config").getData();
        assertEquals("SASL_SSL", config.get("KAFKA_SECURITY_PROTOCOL"));
        assertEquals("SCRAM-SHA-512", config.get("KAFKA_SASL_MECHANISM"));
        assertEquals("/etc/sot/kafka-truststore/ca.p12", config.get("KAFKA_SSL_TRUSTSTORE_LOCATION"));
        assertEquals("PKCS12", config.get("KAFKA_SSL_TRUSTSTORE_TYPE"));
        assertTrue(RenderedManifests.secretEntries(manifests.secret("sot").orElseThrow())
                .containsKey("kafka-sasl-jaas-config"));
        for (ServiceContract service : ServiceContract.values()) {
            Container container = manifests.container(service);
            var jaas = new ContainerEnvironment(container, manifests)
                    .source("KAFKA_SASL_JAAS_CONFIG")
                    .orElseThrow();
            assertTrue(jaas.fromSecret(), service.component + " reads the JAAS line from the Secret");
            assertEquals("kafka-sasl-jaas-config", jaas.secretKey().getKey());
            assertTrue(container.getVolumeMounts().stream()
                    .anyMatch(m -> m.getMountPath().equals("/etc/sot/kafka-truststore") && m.getReadOnly()));
            assertTrue(manifests.deployment(service).getSpec().getTemplate().getSpec().getVolumes().stream()
                    .anyMatch(v -> v.getSecret() != null
                            && "kafka-ca".equals(v.getSecret().getSecretName())));
        }
        Container topicJob = topicJob(manifests)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertTrue(topicJob.getEnv().stream()
                .anyMatch(v -> v.getName().equals("KAFKA_SASL_JAAS_CONFIG")
                        && v.getValueFrom().getSecretKeyRef().getKey().equals("kafka-sasl-jaas-config")));

        var failure = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render("sot", null, Map.of("kafka.saslMechanism", "PLAIN")));
        assertTrue(failure.getMessage().contains("secret.kafkaSaslJaasConfig is required"), failure.getMessage());
        var badProtocol = assertThrows(
                IllegalStateException.class,
                () -> RenderedManifests.render("sot", null, Map.of("kafka.securityProtocol", "TLS")));
        assertTrue(
                badProtocol.getMessage().contains("kafka.securityProtocol must be one of"), badProtocol.getMessage());
    }

    @Test
    void secureCookiesAndTheDispatchersRecordsApiUrlAreValues() {
        var manifests = RenderedManifests.render(
                "sot",
                null,
                Map.of("config.secureCookies", true, "webhookDispatcher.recordsApiUrl", "https://sot.example.com"));
        Map<String, String> config = manifests.configMap("sot-config").getData();
        assertEquals("true", config.get("SESSION_COOKIE_SECURE"));
        assertEquals("https://sot.example.com", config.get("RECORDS_API_SERVICE_URL"));
    }

    private static Job topicJob(RenderedManifests manifests) {
        List<Job> jobs = manifests.all(Job.class);
        assertEquals(1, jobs.size(), "one topic Job");
        return jobs.get(0);
    }

    /** Metric names the dashboard queries; each is asserted on /q/metrics by the named service test. */
    private static final Set<String> SERVED_METRICS = Set.of(
            // records-api web/HttpMetricsTest, webhook-dispatcher observability/DeliveryMetricsTest
            "http_server_requests_seconds_count",
            "http_server_requests_seconds_bucket",
            // records-api changelog/OutboxMetricsTest, LargeEventRelayTest
            "sot_outbox_backlog_rows",
            "sot_outbox_parked_rows",
            "sot_outbox_oldest_unpublished_age_seconds",
            "sot_outbox_published_total",
            "sot_outbox_truncated_total",
            "sot_outbox_parked_total",
            "sot_outbox_failed_total",
            // webhook-dispatcher observability/DeliveryMetricsTest
            "dispatcher_delivery_queue_rows",
            "dispatcher_delivery_attempts_total",
            "dispatcher_delivery_duration_seconds_bucket",
            "dispatcher_delivery_oldest_due_age_seconds",
            "kafka_consumer_fetch_manager_records_lag");

    @Test
    void grafanaDashboardIsShippedForTheSidecarAndQueriesServedMetrics() throws Exception {
        var manifests = RenderedManifests.render("sot", null, Map.of("metrics.grafanaDashboard.enabled", true));
        ConfigMap dashboardMap = manifests.get(ConfigMap.class, "sot-dashboard");
        assertEquals("1", dashboardMap.getMetadata().getLabels().get("grafana_dashboard"));
        JsonNode dashboard = new ObjectMapper().readTree(dashboardMap.getData().get("sot.json"));
        assertEquals("sot-overview", dashboard.path("uid").asText());

        Pattern metric =
                Pattern.compile("\\b(http_server_\\w+|sot_outbox_\\w+|dispatcher_\\w+|kafka_consumer_\\w+)\\{");
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertFalse(panel.path("targets").isEmpty(), panel.path("title").asText());
            for (JsonNode target : panel.path("targets")) {
                Matcher m = metric.matcher(target.path("expr").asText());
                assertTrue(m.find(), "a panel queries a metric of the services: " + target);
                do {
                    queried.add(m.group(1));
                } while (m.find());
            }
        }
        assertTrue(
                SERVED_METRICS.containsAll(queried),
                "not served: "
                        + queried.stream()
                                .filter(q -> !SERVED_METRICS.contains(q))
                                .toList());
        assertTrue(
                queried.containsAll(Set.of(
                        "sot_outbox_oldest_unpublished_age_seconds",
                        "dispatcher_delivery_queue_rows",
                        "http_server_requests_seconds_bucket",
                        "kafka_consumer_fetch_manager_records_lag")),
                "the dashboard covers lag, queue and latency: " + queried);
    }
}
