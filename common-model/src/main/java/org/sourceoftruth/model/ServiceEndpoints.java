package org.sourceoftruth.model;

/**
 * The HTTP endpoints both services promise to Kubernetes. The Helm chart's tests assert that
 * its probes use these paths and ports, and each service's tests assert that it really serves
 * them, so the chart and the services cannot drift apart. Health and metrics are served on the
 * management port (Quarkus's management interface), not on the public HTTP port.
 */
public final class ServiceEndpoints {
    public static final String LIVENESS_PATH = "/q/health/live";
    public static final String READINESS_PATH = "/q/health/ready";
    public static final String STARTUP_PATH = "/q/health/started";
    public static final String METRICS_PATH = "/q/metrics";
    public static final int RECORDS_API_PORT = 8080;
    public static final int WEBHOOK_DISPATCHER_PORT = 8081;
    public static final int RECORDS_API_MANAGEMENT_PORT = 9000;
    public static final int WEBHOOK_DISPATCHER_MANAGEMENT_PORT = 9001;

    private ServiceEndpoints() {}
}
