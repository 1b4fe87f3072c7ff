package org.sourceoftruth.model;

/**
 * The HTTP endpoints both services promise to Kubernetes. The Helm chart's tests assert that
 * its probes use these paths, and each service's tests assert that it really serves them, so
 * the chart and the services cannot drift apart.
 */
public final class ServiceEndpoints {
    public static final String LIVENESS_PATH = "/q/health/live";
    public static final String READINESS_PATH = "/q/health/ready";
    public static final String STARTUP_PATH = "/q/health/started";
    public static final String METRICS_PATH = "/q/metrics";
    public static final int RECORDS_API_PORT = 8080;
    public static final int WEBHOOK_DISPATCHER_PORT = 8081;

    private ServiceEndpoints() {
    }
}
