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
 * installs, the newest the package registries reachable here give) against the service at its
 * default settings: it reads the API version anonymously, then creates, reads, filters and
 * deletes a site with a token; it works with NetBox 4.6's owners and tag changes; and it drives
 * NetBox 4.6's shapes as pynetbox 7.8's own integration suite does for 4.6: front ports with
 * {@code rear_ports}, a cable with a profile traced end to end.
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

    /**
     * NetBox 4.6's resource ownership and tag changes through the same client: owners and owner
     * groups, a site's owner (written by id, read nested, filtered by owner and owner group),
     * and add_tags / remove_tags that change the site's tags without restating them.
     */
    @Test
    void pynetboxAssignsOwnersAndChangesTags() throws Exception {
        assumeTrue(pynetboxInstalled(), "python3-pynetbox is not installed (deploy/local/stack test installs it)");
        Path script = Files.createTempFile("pynetbox_ownership", ".py");
        try (var in = getClass().getResourceAsStream("/clients/pynetbox_ownership.py")) {
            Files.write(script, in.readAllBytes());
        }
        String suffix = Api.uniq();
        Map<String, String> out =
                run(PYTHON, script.toString(), "http://127.0.0.1:" + RestAssured.port, Api.TOKEN, suffix);
        assertEquals("og " + suffix, out.get("owner_group"), out.toString());
        assertEquals("owner " + suffix, out.get("site_owner"), out.toString());
        assertEquals("owned-" + suffix, out.get("by_owner"), out.toString());
        assertEquals("owned-" + suffix, out.get("by_owner_group"), out.toString());
        assertEquals("t1-" + suffix + ",t2-" + suffix, out.get("tags_added"), out.toString());
        assertEquals("t2-" + suffix, out.get("tags_removed"), out.toString());
        assertEquals("None", out.get("cleaned"), out.toString());
    }

    @Test
    void pynetboxMapsFrontPortsWithRearPortsAndTracesAProfiledCableEndToEnd() throws Exception {
        assumeTrue(pynetboxInstalled(), "python3-pynetbox is not installed (deploy/local/stack test installs it)");
        Path script = Files.createTempFile("pynetbox_ports", ".py");
        try (var in = getClass().getResourceAsStream("/clients/pynetbox_ports.py")) {
            Files.write(script, in.readAllBytes());
        }
        Map<String, String> out =
                run(PYTHON, script.toString(), "http://127.0.0.1:" + RestAssured.port, Api.TOKEN, Api.uniq());
        String[] created = out.getOrDefault("created_rear_ports", "").split(",");
        assertEquals(4, created.length, "created: " + out);
        String rear = created[0].split(":")[1];
        for (int lane = 1; lane <= 4; lane++) {
            assertEquals("1:" + rear + ":" + lane, created[lane - 1], "created: " + out);
        }
        assertEquals("2", out.get("fetched_rear_port_position"));
        assertEquals("1", out.get("fetched_positions"));
        assertEquals(4, out.get("rear_front_ports").split(",").length, "rear port's front_ports: " + out);
        assertTrue(out.get("rear_front_ports").startsWith("1>"), out.toString());
        assertEquals("4", out.get("filtered"));
        assertEquals("True", out.get("remapped"));
        assertEquals("single-1c4p", out.get("profile"));
        // qsfp0 - trunk - MPO | LC1..LC4 - patches - e1..e4: two segments of three
        assertEquals("6", out.get("trace_hops"));
        assertEquals("e1,e2,e3,e4", out.get("trace_far_ends"));
        assertEquals("e1,e2,e3,e4", out.get("connected"));
        assertEquals("qsfp0", out.get("lane3_connected"));
        assertEquals("None", out.get("cleaned"));
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
