package org.sourceoftruth.deploy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The chart under deploy/helm/sot, driven through helm-java: Helm's own lint and template code,
 * loaded as a native library, offline and without a cluster.
 */
final class SotChart {

    /** The surefire configuration passes the chart's directory; the fallback serves an IDE run from deploy/. */
    static final Path DIRECTORY =
            Path.of(System.getProperty("chart.dir", "helm/sot")).toAbsolutePath();

    /** A production-like installation, kept beside the chart as chart-testing does. */
    static final Path PRODUCTION_VALUES = DIRECTORY.resolve("ci/production-values.yaml");

    static final String NAMESPACE = "sot";

    /**
     * The Kubernetes version to render for. Helm's offline default (1.20) predates the chart's
     * kubeVersion floor; this is a version the chart supports.
     */
    static final String KUBE_VERSION = "1.31.0";

    private SotChart() {}

    static Helm helm() {
        if (!Files.isRegularFile(DIRECTORY.resolve("Chart.yaml"))) {
            throw new IllegalStateException("No Chart.yaml in " + DIRECTORY);
        }
        return new Helm(DIRECTORY);
    }

    static LintResult lint() {
        return timed("lint --strict", () -> helm().lint().strict().call());
    }

    /**
     * Renders the chart as `helm template` would. valuesFile may be null for the chart's defaults;
     * overrides are `--set` pairs applied last.
     */
    static String template(String releaseName, Path valuesFile, Map<String, Object> overrides) {
        return timed("template " + releaseName + (valuesFile == null ? "" : " -f " + valuesFile.getFileName()), () -> {
            var command = helm().template()
                    .withName(releaseName)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION);
            if (valuesFile != null) {
                command = command.withValuesFile(valuesFile);
            }
            for (var override : overrides.entrySet()) {
                command = command.set(override.getKey(), override.getValue());
            }
            return command.call();
        });
    }

    /**
     * Runs one Helm call and prints how long it took: the first call in a JVM also pays for
     * extracting and loading Helm's native library.
     */
    private static <T> T timed(String helmCommand, Supplier<T> call) {
        long start = System.nanoTime();
        try {
            return call.get();
        } finally {
            System.out.printf("helm %s took %d ms%n", helmCommand, (System.nanoTime() - start) / 1_000_000);
        }
    }

    /** Value sets the chart must render cleanly with. */
    enum ValuesSet {
        DEFAULTS("sot", null),
        PRODUCTION("inventory", PRODUCTION_VALUES);

        final String releaseName;
        final Path file;

        ValuesSet(String releaseName, Path file) {
            this.releaseName = releaseName;
            this.file = file;
        }

        String render() {
            return template(releaseName, file, Map.of());
        }
    }
}
