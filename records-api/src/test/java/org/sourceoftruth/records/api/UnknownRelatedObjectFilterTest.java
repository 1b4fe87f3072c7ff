package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A relation filter (NetBox's ModelMultipleChoiceFilter or TreeNodeMultipleChoiceFilter) given
 * an id or slug that names no object is a 400 "Select a valid choice. X is not one of the
 * available choices.", not an empty list: plain foreign keys, and the filters declared through
 * other objects (a tenant's group, a scope's region or site, a circuit's provider, a cluster's
 * group). Number filters (NetBox's MultiValueNumberFilter) stay lookups that match nothing.
 */
@QuarkusTest
class UnknownRelatedObjectFilterTest {
    private static final long NONE = 987654321L;

    private static void refused(String list, String param, Object value) {
        auth().get(list + "?" + param + "=" + value)
                .then()
                .statusCode(400)
                .body(param, contains("Select a valid choice. " + value + " is not one of the available choices."));
    }

    @Test
    void unknownRelatedObjectsAreRefused() {
        refused("/api/dcim/devices/", "site_id", NONE);
        refused("/api/dcim/devices/", "site_id__n", NONE);
        for (String list : List.of(
                "/api/ipam/prefixes/",
                "/api/ipam/vrfs/",
                "/api/circuits/circuits/",
                "/api/virtualization/clusters/",
                "/api/ipam/asn-ranges/")) {
            refused(list, "tenant_group_id", NONE);
            refused(list, "tenant_group", "no-such-group");
        }
        for (String param : List.of("region_id", "site_group_id", "site_id", "location_id")) {
            refused("/api/ipam/prefixes/", param, NONE);
            refused("/api/circuits/circuit-terminations/", param, NONE);
            refused("/api/virtualization/clusters/", param, NONE);
        }
        refused("/api/ipam/prefixes/", "region", "no-such-region");
        refused("/api/ipam/prefixes/", "vlan_group_id", NONE);
        refused("/api/ipam/vlans/", "region_id", NONE);
        refused("/api/circuits/circuit-terminations/", "provider_id", NONE);
        refused("/api/circuits/circuit-terminations/", "provider", "no-such-provider");
        refused("/api/circuits/circuit-group-assignments/", "provider_id", NONE);
        refused("/api/circuits/circuit-group-assignments/", "circuit_id", NONE);
        refused("/api/circuits/circuit-group-assignments/", "virtual_circuit_id", NONE);
        refused("/api/virtualization/virtual-machines/", "cluster_group_id", NONE);
        refused("/api/virtualization/virtual-machines/", "cluster_type", "no-such-type");
        refused("/api/virtualization/virtual-machines/", "region_id", NONE);
        refused("/api/virtualization/interfaces/", "cluster_id", NONE);
        refused("/api/ipam/ip-addresses/", "interface_id", NONE);
        refused("/api/ipam/ip-addresses/", "vminterface_id", NONE);
        // one 400 names every parameter with an unknown value
        auth().get("/api/ipam/prefixes/?site_id=" + NONE + "&tenant_group_id=" + NONE)
                .then()
                .statusCode(400)
                .body("site_id[0]", equalTo("Select a valid choice. " + NONE + " is not one of the available choices."))
                .body(
                        "tenant_group_id[0]",
                        equalTo("Select a valid choice. " + NONE + " is not one of the available choices."));
        // number filters in NetBox: no such check
        auth().get("/api/ipam/ip-addresses/?device_id=" + NONE)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        auth().get("/api/dcim/cables/?site_id=" + NONE).then().statusCode(200).body("count", equalTo(0));
    }

    @Test
    void existingRelatedObjectsStillFilter() {
        String u = uniq();
        int group = create("/api/tenancy/tenant-groups/", Map.of("name", "tg-" + u, "slug", "tg-" + u));
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "t-" + u, "slug", "t-" + u, "group", group));
        int region = create("/api/dcim/regions/", Map.of("name", "r-" + u, "slug", "r-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "s-" + u, "slug", "s-" + u, "region", region));
        int prefix = create(
                "/api/ipam/prefixes/",
                Map.of(
                        "prefix",
                        "10.219." + (Math.abs(u.hashCode()) % 250) + ".0/24",
                        "tenant",
                        tenant,
                        "scope_type",
                        "dcim.site",
                        "scope_id",
                        site));
        auth().get("/api/ipam/prefixes/?tenant_group_id=" + group)
                .then()
                .statusCode(200)
                .body("results.id", contains(prefix));
        auth().get("/api/ipam/prefixes/?tenant_group=tg-" + u + "&region_id=" + region + "&site=s-" + u)
                .then()
                .statusCode(200)
                .body("results.id", contains(prefix));
        // a known and an unknown value together: still a 400 (NetBox checks each value)
        auth().get("/api/ipam/prefixes/?region_id=" + region + "&region_id=" + NONE)
                .then()
                .statusCode(400)
                .body(
                        "region_id",
                        contains("Select a valid choice. " + NONE + " is not one of the available choices."));
    }
}
