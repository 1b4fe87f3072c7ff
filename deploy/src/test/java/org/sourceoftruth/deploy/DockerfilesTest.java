package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Docker is not available where the build runs, so the images cannot be built here; this checks
 * the Dockerfiles for what the chart relies on: a numeric non-root user, the port, exec-form
 * entry points, and copies from the paths Quarkus writes (which .dockerignore lets through).
 */
class DockerfilesTest {

    private static final Path DOCKER_DIRECTORY = SotChart.DIRECTORY.resolve("../../docker").normalize();
    private static final Path DOCKERIGNORE = SotChart.DIRECTORY.resolve("../../../.dockerignore").normalize();

    enum Image {
        JVM("Dockerfile.jvm", "registry.access.redhat.com/ubi9/openjdk-17-runtime:",
                List.of("${MODULE}/target/quarkus-app/lib/", "${MODULE}/target/quarkus-app/*.jar",
                        "${MODULE}/target/quarkus-app/app/", "${MODULE}/target/quarkus-app/quarkus/")),
        NATIVE("Dockerfile.native", "quay.io/quarkus/ubi9-quarkus-micro-image:",
                List.of("${MODULE}/target/*-runner"));

        final String file;
        final String baseImage;
        final List<String> copiedSources;

        Image(String file, String baseImage, List<String> copiedSources) {
            this.file = file;
            this.baseImage = baseImage;
            this.copiedSources = copiedSources;
        }
    }

    @ParameterizedTest
    @EnumSource(Image.class)
    void runsAsANumericNonRootUserAndExposesTheServicePort(Image image) throws IOException {
        List<String> instructions = instructions(image);

        assertEquals(1, instructions.stream().filter(line -> line.startsWith("FROM ")).count(), "a single stage");
        assertTrue(instructions.get(0).startsWith("FROM " + image.baseImage), instructions.get(0));
        assertTrue(instructions.contains("ARG MODULE"), "the service is a build argument");
        assertTrue(instructions.contains("ARG HTTP_PORT=" + ServiceContract.RECORDS_API.httpPort));
        assertTrue(instructions.contains("EXPOSE ${HTTP_PORT}"));
        assertTrue(instructions.contains("ARG MANAGEMENT_PORT=" + ServiceContract.RECORDS_API.managementPort));
        assertTrue(instructions.contains("EXPOSE ${MANAGEMENT_PORT}"), "health and metrics port exposed");
        assertTrue(instructions.stream().anyMatch(line -> line.startsWith("ENV ")
                && line.contains("MANAGEMENT_PORT=${MANAGEMENT_PORT}")), "the service serves health where EXPOSE says");
        assertTrue(instructions.stream().anyMatch(line -> line.startsWith("ENV ") && line.contains("HTTP_PORT=${HTTP_PORT}")),
                "the service listens where EXPOSE says");

        String user = last(instructions, "USER ");
        assertTrue(user.matches("USER [1-9][0-9]*"), "numeric non-root user, so runAsNonRoot can be verified: " + user);
        String entrypoint = last(instructions, "ENTRYPOINT ");
        assertTrue(entrypoint.matches("ENTRYPOINT \\[\".*\"]"),
                "exec form, so SIGTERM reaches the service for its graceful shutdown: " + entrypoint);
    }

    @ParameterizedTest
    @EnumSource(Image.class)
    void copiesTheQuarkusBuildOutputThatTheDockerignoreLetsThrough(Image image) throws IOException {
        List<String> sources = instructions(image).stream()
                .filter(line -> line.startsWith("COPY "))
                .map(line -> line.split("\\s+"))
                .map(words -> words[words.length - 2])
                .toList();
        List<String> ignore = Files.readAllLines(DOCKERIGNORE);

        assertEquals(image.copiedSources, sources);
        assertTrue(ignore.contains("*"), ".dockerignore starts from nothing");
        for (String source : sources) {
            String underTarget = source.replace("${MODULE}", "*");
            assertTrue(ignore.stream().filter(line -> line.startsWith("!"))
                            .anyMatch(allowed -> underTarget.startsWith(allowed.substring(1))),
                    ".dockerignore lets " + source + " into the build context");
        }
    }

    private static String last(List<String> instructions, String keyword) {
        return instructions.stream().filter(line -> line.startsWith(keyword)).reduce((first, second) -> second)
                .orElseThrow(() -> new AssertionError("no " + keyword.trim()));
    }

    /** The Dockerfile's instructions, continuation lines joined, comments and blank lines dropped. */
    private static List<String> instructions(Image image) throws IOException {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(DOCKER_DIRECTORY.resolve(image.file))) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            instructions.add(current.append(trimmed).toString().replaceAll("\\s+", " "));
            current.setLength(0);
        }
        return instructions;
    }
}
