package org.sourceoftruth.records.web;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.stream.LongStream;

/**
 * http.server.requests as a Prometheus histogram: fixed latency buckets (5 ms to 10 s), so
 * dashboards compute quantiles over replicas and routes (a client-side percentile cannot be
 * aggregated). Eleven buckets per series keep the series count small; the uri label is the
 * route template (Quarkus's), unknown paths collapse to NOT_FOUND (application.properties).
 */
public class HttpMetrics {
    static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    private static final double[] BUCKETS = LongStream.of(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000)
            .mapToDouble(ms -> Duration.ofMillis(ms).toNanos()).toArray();

    @Produces
    @Singleton
    MeterFilter latencyBuckets() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals(HTTP_SERVER_REQUESTS)) {
                    return config;
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(BUCKETS).build().merge(config);
            }
        };
    }
}
