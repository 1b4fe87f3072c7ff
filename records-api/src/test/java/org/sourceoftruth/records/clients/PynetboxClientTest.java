package org.sourceoftruth.records.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * The real pynetbox client (Debian's python3-pynetbox 7.0.0, which `deploy/local/stack test`
 * installs) against the service at its default settings: it reads the API version anonymously,
 * then creates, reads, filters and deletes a site with a token.
 */
@QuarkusTest
class PynetboxClientTest {
    /** Debian's packages install for Debian's interpreter, not for a python3 earlier on PATH (pyenv). */
    private static final String PYTHON =
            Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";

    @Test
    void debianPynetboxReadsTheVersionAndWorksWithSites() throws Exception {
        assumeTrue(pynetboxInstalled(), "python3-pynetbox is not installed (deploy/local/stack test installs it)");
        Path script = Files.createTempFile("pynetbox_smoke", ".py");
        try (var in = getClass().getResourceAsStream("/clients/pynetbox_smoke.py")) {
            Files.write(script, in.readAllBytes());
        }
        String suffix = Api.uniq();
        Map<String, String> out =
                run(PYTHON, script.toString(), "http://127.0.0.1:" + RestAssured.port, Api.TOKEN, suffix);
        assertTrue(out.getOrDefault("version", "").matches("\\d+\\.\\d+"), "version: " + out);
        assertTrue(out.getOrDefault("created", "").matches("\\d+"), "created: " + out);
        assertEquals("pynetbox " + suffix, out.get("fetched"));
        assertEquals("1", out.get("filtered"));
        assertEquals("None", out.get("deleted"));
    }

    private static boolean pynetboxInstalled() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(PYTHON, "-c", "import pynetbox")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    /** Runs the command and returns its "key=value" lines; fails on a non-zero exit with its output. */
    private static Map<String, String> run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "pynetbox script timed out: " + text);
        assertEquals(0, p.exitValue(), "pynetbox script failed:\n" + text);
        Map<String, String> values = new LinkedHashMap<>();
        text.lines()
                .filter(l -> l.contains("="))
                .forEach(l -> values.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        return values;
    }
}
