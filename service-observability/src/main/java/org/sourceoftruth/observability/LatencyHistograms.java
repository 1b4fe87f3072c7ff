package org.sourceoftruth.observability;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.LongStream;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@value #HTTP_SERVER_REQUESTS} and the timers a service names in
 * {@code sot.metrics.latency-histograms} (the dispatcher's delivery attempts) as Prometheus
 * histograms with fixed latency buckets (5 ms to 10 s), so dashboards compute quantiles over
 * replicas and routes (a client-side percentile cannot be aggregated). Eleven buckets per series
 * keep the series count small; the uri label is the route template (Quarkus's), unknown paths
 * collapse to NOT_FOUND (each service's application.properties).
 */
public class LatencyHistograms {
    public static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    private static final double[] BUCKETS = LongStream.of(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000)
            .mapToDouble(ms -> Duration.ofMillis(ms).toNanos())
            .toArray();

    @ConfigProperty(name = "sot.metrics.latency-histograms")
    Optional<List<String>> serviceTimers;

    @Produces
    @Singleton
    MeterFilter latencyBuckets() {
        Set<String> names = new HashSet<>(serviceTimers.orElse(List.of()));
        names.add(HTTP_SERVER_REQUESTS);
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!names.contains(id.getName())) {
                    return config;
                }
                return DistributionStatisticConfig.builder()
                        .serviceLevelObjectives(BUCKETS)
                        .build()
                        .merge(config);
            }
        };
    }
}
