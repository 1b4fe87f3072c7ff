package org.sourceoftruth.records.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.sourceoftruth.records.Api.create;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;

/**
 * The real Ansible inventory plugin (Debian's ansible 7 with netbox.netbox 3.13, which
 * `deploy/local/stack test` installs) against the service with the plugin's default fetches
 * (services and interfaces included, every endpoint it reads must answer): a device appears as a
 * host in its site's and role's groups, with its interface and that interface's address.
 */
@QuarkusTest
class AnsibleInventoryTest {

    @Test
    void inventoryPluginBuildsHostsGroupsAndInterfaces() throws Exception {
        assumeTrue(
                installed(),
                "ansible-inventory with the netbox.netbox collection is not installed"
                        + " (deploy/local/stack test installs Debian's ansible)");
        String u = Api.uniq();
        int site = Api.site("inv-" + u);
        String name = "inv-dev-" + u;
        int device = Api.device(site, Api.deviceTypeAndRole(), name);
        int iface = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        create(
                "/api/ipam/ip-addresses/",
                Map.of(
                        "address",
                        "198.51.100.9/24",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        iface));
        create(
                "/api/ipam/services/",
                Map.of(
                        "parent_object_type",
                        "dcim.device",
                        "parent_object_id",
                        device,
                        "name",
                        "ssh",
                        "protocol",
                        "tcp",
                        "ports",
                        List.of(22)));

        Path dir = Files.createTempDirectory("nb-inventory");
        Path config = dir.resolve("netbox_inventory.yml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "plugin: netbox.netbox.nb_inventory",
                        "api_endpoint: http://127.0.0.1:" + RestAssured.port,
                        "token: " + Api.TOKEN,
                        "validate_certs: false",
                        "config_context: true",
                        "interfaces: true",
                        "services: true",
                        "group_by: [sites, device_roles]",
                        "query_filters: [{name: " + name + "}]",
                        ""));
        JsonNode inventory = Json.MAPPER.readTree(run(dir, "ansible-inventory", "-i", config.toString(), "--list"));

        JsonNode host = inventory.path("_meta").path("hostvars").path(name);
        assertTrue(host.isObject(), "the device is a host: " + inventory);
        String siteSlug = host.path("sites").path(0).asText();
        assertTrue(
                inventory
                                .path("sites_" + siteSlug.replace('-', '_'))
                                .path("hosts")
                                .toString()
                                .contains(name)
                        || inventory
                                .path("sites_" + siteSlug)
                                .path("hosts")
                                .toString()
                                .contains(name),
                "the host is in its site's group: " + inventory);
        JsonNode interfaces = host.path("interfaces");
        assertEquals(1, interfaces.size(), "its interface: " + host);
        assertEquals("eth0", interfaces.path(0).path("name").asText());
        assertEquals(
                "198.51.100.9/24",
                interfaces.path(0).path("ip_addresses").path(0).path("address").asText(),
                "the interface's address: " + interfaces);
    }

    private static boolean installed() throws IOException, InterruptedException {
        try {
            Process p = new ProcessBuilder("ansible-doc", "-t", "inventory", "netbox.netbox.nb_inventory")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false; // no ansible-doc on PATH
        }
    }

    /** Runs the command in {@code dir}; its standard output, or a failure with everything it wrote. */
    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Path err = dir.resolve("stderr.txt");
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectError(err.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "ansible-inventory timed out");
        String errors = Files.readString(err);
        assertEquals(0, p.exitValue(), "ansible-inventory failed:\n" + errors + out);
        // ansible-inventory exits 0 even when its plugin failed (it falls back to other parsers)
        assertTrue(
                !errors.contains("Failed to parse") && !errors.contains("Unable to parse"),
                "the netbox plugin failed:\n" + errors);
        return out;
    }
}
