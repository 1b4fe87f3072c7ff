package org.sourceoftruth.deploy;

import java.util.List;
import org.sourceoftruth.model.ServiceEndpoints;

/**
 * What each service promises to Kubernetes, and so what the chart must wire: its HTTP port, its
 * Quarkus health endpoints and the environment variables it reads. The chart tests assert the
 * rendered manifests against these constants; a check against the running services can read the
 * same ones.
 */
public enum ServiceContract {
    RECORDS_API("records-api", ServiceEndpoints.RECORDS_API_PORT, ServiceEndpoints.RECORDS_API_MANAGEMENT_PORT, true),
    WEBHOOK_DISPATCHER(
            "webhook-dispatcher",
            ServiceEndpoints.WEBHOOK_DISPATCHER_PORT,
            ServiceEndpoints.WEBHOOK_DISPATCHER_MANAGEMENT_PORT,
            false);

    /**
     * Quarkus SmallRye Health endpoints, served on the service's management port. The values live in
     * common-model, where each service's own tests check that it serves them.
     */
    public static final String LIVENESS_PATH = ServiceEndpoints.LIVENESS_PATH;

    public static final String READINESS_PATH = ServiceEndpoints.READINESS_PATH;
    public static final String STARTUP_PATH = ServiceEndpoints.STARTUP_PATH;

    /** Variables every service reads (12-factor configuration). */
    static final List<String> COMMON_ENV = List.of(
            "DB_HOST",
            "DB_PORT",
            "DB_NAME",
            "DB_USER",
            "DB_PASSWORD",
            "KAFKA_BOOTSTRAP_SERVERS",
            "KAFKA_PARTITIONS",
            "HTTP_PORT",
            "API_VERSION",
            "PAGINATE_COUNT",
            "MAX_PAGE_SIZE",
            "STRICT_FILTERING",
            "SUPERUSER_NAME",
            "SUPERUSER_EMAIL",
            "LOG_JSON",
            "WEBHOOK_RETRY_MAX",
            "WEBHOOK_TIMEOUT_SECONDS");

    /** Variables that must come from a Secret, never from a literal or a ConfigMap. */
    static final List<String> SECRET_ENV = List.of("DB_PASSWORD", "SUPERUSER_PASSWORD", "SUPERUSER_API_TOKEN");

    /** Superuser credentials: only records-api bootstraps the superuser, so only it gets them. */
    static final List<String> SUPERUSER_SECRET_ENV = List.of("SUPERUSER_PASSWORD", "SUPERUSER_API_TOKEN");

    /** The name of the Deployment, Service and container, after the release's full name. */
    public final String component;

    public final int httpPort;
    /** Health and metrics (Quarkus's management interface). */
    public final int managementPort;

    final boolean bootstrapsSuperuser;

    ServiceContract(String component, int httpPort, int managementPort, boolean bootstrapsSuperuser) {
        this.component = component;
        this.httpPort = httpPort;
        this.managementPort = managementPort;
        this.bootstrapsSuperuser = bootstrapsSuperuser;
    }

    /** Every variable this service must find in its container's environment. */
    List<String> requiredEnv() {
        if (!bootstrapsSuperuser) {
            return COMMON_ENV;
        }
        var all = new java.util.ArrayList<>(COMMON_ENV);
        all.addAll(SUPERUSER_SECRET_ENV);
        return List.copyOf(all);
    }
}
