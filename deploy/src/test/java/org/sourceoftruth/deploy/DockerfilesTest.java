package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Docker is not available where the build runs, so the images cannot be built here; this checks
 * the Dockerfiles for what the chart and an operator rely on: two stages (the JVM image builds the
 * service from source inside Docker with the pinned Maven wrapper; the native image takes the
 * executable the native-container profile built and checks it; either copies only that output
 * onto a runtime-only base), a numeric non-root user, the port, exec-form entry points, and a
 * build context (.dockerignore) that holds the build's input, the native executables and no
 * local state. hadolint is not available here; these are the rules of it that matter to us.
 */
class DockerfilesTest {

    private static final Path REPOSITORY =
            SotChart.DIRECTORY.resolve("../../..").normalize();
    private static final Path DOCKER_DIRECTORY = REPOSITORY.resolve("deploy/docker");
    private static final Path DOCKERIGNORE = REPOSITORY.resolve(".dockerignore");

    enum Image {
        JVM(
                "Dockerfile.jvm",
                "registry.access.redhat.com/ubi9/openjdk-17:",
                "build",
                "registry.access.redhat.com/ubi9/openjdk-17-runtime:",
                List.of(
                        "/build/${MODULE}/target/quarkus-app/lib/", "/build/${MODULE}/target/quarkus-app/*.jar",
                        "/build/${MODULE}/target/quarkus-app/app/", "/build/${MODULE}/target/quarkus-app/quarkus/")),
        NATIVE(
                "Dockerfile.native",
                "registry.access.redhat.com/ubi9/ubi-minimal:",
                "executable",
                "quay.io/quarkus/ubi9-quarkus-micro-image:",
                List.of("/executable/application"));

        final String file;
        final String firstImage;
        final String firstStage;
        final String runtimeImage;
        final List<String> copiedFromFirstStage;

        Image(String file, String firstImage, String firstStage, String runtimeImage, List<String> copied) {
            this.file = file;
            this.firstImage = firstImage;
            this.firstStage = firstStage;
            this.runtimeImage = runtimeImage;
            this.copiedFromFirstStage = copied;
        }
    }

    @ParameterizedTest
    @EnumSource(Image.class)
    void firstStagePreparesTheOutputAndTheRunStageHasARuntimeBase(Image image) throws IOException {
        List<String> instructions = instructions(image);
        List<String> stages =
                instructions.stream().filter(line -> line.startsWith("FROM ")).toList();

        assertEquals(2, stages.size(), "a first stage and a run stage: " + stages);
        assertTrue(
                stages.get(0).startsWith("FROM " + image.firstImage)
                        && stages.get(0).endsWith(" AS " + image.firstStage),
                stages.get(0));
        assertTrue(
                stages.get(1).startsWith("FROM " + image.runtimeImage)
                        && stages.get(1).endsWith(" AS run"),
                stages.get(1));
        for (String stage : stages) {
            String reference = stage.split(" ")[1];
            assertTrue(
                    reference.matches(".+:[0-9][^:]*") || reference.matches(".+:jdk-[0-9]+"),
                    "a base image pinned to a version, never latest: " + stage);
        }
        List<String> first = firstStage(instructions);
        List<String> builds =
                first.stream().filter(line -> line.startsWith("RUN ")).toList();
        if (image == Image.JVM) {
            assertTrue(
                    builds.stream()
                            .anyMatch(line -> line.contains("./mvnw ")
                                    && line.contains("-pl ${MODULE} -am")
                                    && line.contains("-DskipTests")),
                    "the build stage packages the module with what it depends on: " + builds);
            assertTrue(
                    builds.stream().allMatch(line -> line.contains("--mount=type=cache,target=")),
                    "Maven's repository is a build cache, not an image layer: " + builds);
        } else {
            assertEquals(
                    List.of("COPY ${MODULE}/target/*-runner /executable/"),
                    first.stream().filter(line -> line.startsWith("COPY ")).toList(),
                    "the native image takes only the module's executable from the context");
            assertTrue(
                    builds.stream().anyMatch(line -> line.contains("-ne 1") && line.contains("= ELF")),
                    "the executable is checked: exactly one, and a Linux one: " + builds);
        }
    }

    @ParameterizedTest
    @EnumSource(Image.class)
    void runsAsANumericNonRootUserAndExposesTheServicePort(Image image) throws IOException {
        List<String> instructions = runStage(instructions(image));

        assertTrue(instructions.contains("ARG MODULE"), "the service is a build argument");
        assertTrue(instructions.contains("ARG HTTP_PORT=" + ServiceContract.RECORDS_API.httpPort));
        assertTrue(instructions.contains("EXPOSE ${HTTP_PORT}"));
        assertTrue(instructions.contains("ARG MANAGEMENT_PORT=" + ServiceContract.RECORDS_API.managementPort));
        assertTrue(instructions.contains("EXPOSE ${MANAGEMENT_PORT}"), "health and metrics port exposed");
        assertTrue(
                instructions.stream()
                        .anyMatch(
                                line -> line.startsWith("ENV ") && line.contains("MANAGEMENT_PORT=${MANAGEMENT_PORT}")),
                "the service serves health where EXPOSE says");
        assertTrue(
                instructions.stream()
                        .anyMatch(line -> line.startsWith("ENV ") && line.contains("HTTP_PORT=${HTTP_PORT}")),
                "the service listens where EXPOSE says");

        String user = last(instructions, "USER ");
        assertTrue(user.matches("USER [1-9][0-9]*"), "numeric non-root user, so runAsNonRoot can be verified: " + user);
        String entrypoint = last(instructions, "ENTRYPOINT ");
        assertTrue(
                entrypoint.matches("ENTRYPOINT \\[\".*\"]"),
                "exec form, so SIGTERM reaches the service for its graceful shutdown: " + entrypoint);
    }

    /** After an OutOfMemoryError the process ends (and is started again) instead of running on damaged. */
    @ParameterizedTest
    @EnumSource(Image.class)
    void theServiceExitsAtItsFirstOutOfMemoryError(Image image) throws IOException {
        List<String> instructions = runStage(instructions(image));
        String entrypoint = last(instructions, "ENTRYPOINT ");
        boolean inJavaOptions = instructions.stream()
                .anyMatch(line -> line.startsWith("ENV ")
                        && line.matches("(?s).*JAVA_OPTS_APPEND=\"[^\"]*-XX:\\+ExitOnOutOfMemoryError[^\"]*\".*"));
        assertTrue(
                image == Image.NATIVE ? entrypoint.contains("\"-XX:+ExitOnOutOfMemoryError\"") : inJavaOptions,
                "-XX:+ExitOnOutOfMemoryError in " + (image == Image.NATIVE ? entrypoint : "JAVA_OPTS_APPEND"));
    }

    @ParameterizedTest
    @EnumSource(Image.class)
    void runStageTakesOnlyTheBuildOutput(Image image) throws IOException {
        List<String> copies = runStage(instructions(image)).stream()
                .filter(line -> line.startsWith("COPY "))
                .toList();
        List<String> sources = copies.stream()
                .map(line -> line.split("\\s+"))
                .map(words -> words[words.length - 2])
                .toList();

        assertTrue(
                copies.stream().allMatch(line -> line.contains("--from=" + image.firstStage)),
                "nothing from the context: " + copies);
        assertEquals(image.copiedFromFirstStage, sources);
    }

    @Test
    void buildContextHoldsTheBuildInputAndNoLocalState() throws IOException {
        List<String> ignore = Files.readAllLines(DOCKERIGNORE).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();

        assertEquals("*", ignore.get(0), ".dockerignore starts from nothing");
        for (String needed : List.of("!pom.xml", "!mvnw", "!.mvn/", "!*/pom.xml", "!*/src/", "!deploy/build/")) {
            assertTrue(ignore.contains(needed), ".dockerignore lets the build's input in: " + needed);
        }
        assertTrue(ignore.indexOf("**/target/") > ignore.indexOf("!*/src/"), "no build output of the host goes in");
        assertEquals(
                List.of("!*/target/*-runner"),
                ignore.subList(ignore.indexOf("**/target/") + 1, ignore.size()),
                "but the native executables (Dockerfile.native takes them), and nothing else of target/");
        assertTrue(
                ignore.stream().noneMatch(line -> line.startsWith("!.local") || line.startsWith("!.git")),
                "no local databases, tokens or history");
        assertTrue(Files.isExecutable(REPOSITORY.resolve("mvnw")), "the Maven wrapper is committed and executable");
        String wrapper = Files.readString(REPOSITORY.resolve(".mvn/wrapper/maven-wrapper.properties"));
        assertTrue(
                wrapper.contains("distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/"),
                "the wrapper pins a Maven release from Maven Central: " + wrapper);
    }

    /** The instructions after the second FROM. */
    private static List<String> runStage(List<String> instructions) {
        return instructions.subList(stageStarts(instructions).get(1), instructions.size());
    }

    /** The instructions from the first FROM up to the second. */
    private static List<String> firstStage(List<String> instructions) {
        List<Integer> starts = stageStarts(instructions);
        return instructions.subList(starts.get(0), starts.get(1));
    }

    private static List<Integer> stageStarts(List<String> instructions) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).startsWith("FROM ")) {
                starts.add(i);
            }
        }
        return starts;
    }

    private static String last(List<String> instructions, String keyword) {
        return instructions.stream()
                .filter(line -> line.startsWith(keyword))
                .reduce((first, second) -> second)
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
