package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The native CI workflow cannot run here (no container engine, no GraalVM); what can be checked is
 * that it is a well-formed workflow and that every command it runs exists: the Maven profile and
 * modules, the Dockerfile and its modules, the smoke-test script.
 */
class NativeWorkflowTest {
    private static final Path REPOSITORY =
            SotChart.DIRECTORY.resolve("../../..").normalize();
    private static final Path WORKFLOW = REPOSITORY.resolve(".github/workflows/native.yml");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> workflow() throws IOException {
        return new Yaml().load(Files.readString(WORKFLOW));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> steps() throws IOException {
        Map<String, Object> jobs = (Map<String, Object>) workflow().get("jobs");
        Map<String, Object> job = (Map<String, Object>) jobs.get("native");
        return (List<Map<String, Object>>) job.get("steps");
    }

    private static List<String> runs() throws IOException {
        List<String> runs = new ArrayList<>();
        for (Map<String, Object> step : steps()) {
            if (step.get("run") != null) {
                runs.add(step.get("run").toString().replace("\\\n", " "));
            }
        }
        return runs;
    }

    @Test
    @SuppressWarnings("unchecked")
    void isAWorkflowForAHostedRunnerThatSaysItCannotRunHere() throws IOException {
        Map<String, Object> workflow = workflow();
        assertEquals("native", workflow.get("name"));
        // YAML 1.1 reads the key "on" as the boolean true
        Object on = workflow.containsKey("on") ? workflow.get("on") : workflow.get(true);
        assertTrue(on instanceof Map<?, ?> triggers && triggers.containsKey("workflow_dispatch"), "triggers: " + on);
        Map<String, Object> job = (Map<String, Object>) ((Map<String, Object>) workflow.get("jobs")).get("native");
        assertEquals("ubuntu-latest", job.get("runs-on"), "a hosted runner: it has Docker");
        assertTrue(job.get("timeout-minutes") instanceof Integer minutes && minutes <= 90, "bounded in time");
        String text = Files.readString(WORKFLOW);
        assertTrue(text.contains("CANNOT run on this"), "the workflow says where it cannot run");
        for (Map<String, Object> step : steps()) {
            Object uses = step.get("uses");
            if (uses != null) {
                assertTrue(
                        uses.toString().matches("[\\w-]+/[\\w-]+@v\\d+"),
                        "an action pinned to a major version: " + uses);
            }
        }
    }

    @Test
    void theMavenStepUsesAProfileAndModulesThatExist() throws IOException {
        String pom = Files.readString(REPOSITORY.resolve("pom.xml"));
        List<String> maven =
                runs().stream().filter(run -> run.contains("./mvnw ")).toList();
        assertEquals(1, maven.size(), "one Maven build: " + runs());
        String command = maven.get(0);
        assertTrue(Files.isExecutable(REPOSITORY.resolve("mvnw")));
        Matcher profile = Pattern.compile("-P([\\w-]+)").matcher(command);
        assertTrue(profile.find(), command);
        assertTrue(
                pom.contains("<id>" + profile.group(1) + "</id>"),
                "profile " + profile.group(1) + " exists in pom.xml");
        assertTrue(
                pom.contains("<quarkus.native.container-build>true</quarkus.native.container-build>")
                        && pom.contains("quarkus-mandrel-builder-image"),
                "the profile builds in a container with the Mandrel builder image");
        Matcher modules = Pattern.compile("-pl ([\\w,-]+)").matcher(command);
        assertTrue(modules.find(), command);
        List<String> built = List.of(modules.group(1).split(","));
        assertEquals(List.of("records-api", "webhook-dispatcher"), built, "both services");
        for (String module : built) {
            assertTrue(Files.isRegularFile(REPOSITORY.resolve(module).resolve("pom.xml")), module);
        }
    }

    @Test
    void theImagesAreBuiltFromTheNativeDockerfileForEachService() throws IOException {
        String images = String.join("\n", runs());
        Matcher build = Pattern.compile("docker build -f (\\S+) --build-arg MODULE=([\\w-]+)")
                .matcher(images);
        List<String> modules = new ArrayList<>();
        while (build.find()) {
            assertEquals("deploy/docker/Dockerfile.native", build.group(1));
            assertTrue(Files.isRegularFile(REPOSITORY.resolve(build.group(1))));
            modules.add(build.group(2));
        }
        assertEquals(List.of("records-api", "webhook-dispatcher"), modules);
        assertTrue(
                images.contains("--build-arg HTTP_PORT=8081 --build-arg MANAGEMENT_PORT=9001"),
                "the dispatcher's ports");
    }

    @Test
    void theSmokeTestScriptExistsAndGetsWhatItAsksFor() throws IOException {
        List<String> smoke =
                runs().stream().filter(run -> run.contains("native-smoke-test")).toList();
        assertEquals(1, smoke.size(), runs().toString());
        // a GitHub expression (${{ ... }}) is one argument
        String[] words =
                smoke.get(0).trim().replaceAll("\\$\\{\\{[^}]*}}", "EXPRESSION").split("\\s+");
        Path script = REPOSITORY.resolve(words[0]);
        assertTrue(Files.isExecutable(script), script + " exists and is executable");
        String body = Files.readString(script);
        assertTrue(body.contains("API_IMAGE=$1 DISPATCHER_IMAGE=$2 KAFKA_CONTAINER=$3"), "its three arguments");
        assertEquals(4, words.length, "the script gets its three arguments: " + smoke.get(0));
        assertFalse(body.contains("docker compose"), "only docker itself");
        assertTrue(body.contains("--compression-codec zstd"), "the consumer is shown a zstd record");
    }
}
