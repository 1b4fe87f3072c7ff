package org.sourceoftruth.records.ipam;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * Fields of NetBox 4.4's API beyond the plain ones (counts over data held here,
 * relations to models not built yet, rack dimensions, custom-field data types), and validation
 * as NetBox words it.
 */
@QuarkusTest
class ContractFieldsTest {

    @Test
    void countsOverDataHeldHereAreReal() {
        String u = uniq();
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "cf-" + u, "slug", "cf-" + u));
        int site = Api.site("cf");
        create(
                "/api/ipam/prefixes/",
                Map.of(
                        "prefix",
                        Ipam.v4Block() + ".0/24",
                        "tenant",
                        tenant,
                        "scope_type",
                        "dcim.site",
                        "scope_id",
                        site));
        create("/api/ipam/vlans/", Map.of("vid", 100, "name", "v-" + u, "site", site, "tenant", tenant));
        create("/api/ipam/vrfs/", Map.of("name", "vrf-" + u, "tenant", tenant));
        auth().get("/api/tenancy/tenants/" + tenant + "/")
                .then()
                .statusCode(200)
                .body("prefix_count", equalTo(1))
                .body("vlan_count", equalTo(1))
                .body("vrf_count", equalTo(1))
                .body("ipaddress_count", equalTo(0))
                .body("circuit_count", equalTo(0))
                .body("virtualmachine_count", equalTo(0))
                .body("cluster_count", equalTo(0));
        auth().get("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .body("prefix_count", equalTo(1))
                .body("vlan_count", equalTo(1))
                .body("virtualmachine_count", equalTo(0))
                .body("circuit_count", equalTo(0))
                .body("asns", hasSize(0));
    }

    @Test
    void relationsToModelsNotBuiltRenderAsNetBoxUnset() {
        int[] d = Ipam.deviceWithInterface("cf-" + uniq());
        auth().get("/api/dcim/devices/" + d[0] + "/")
                .then()
                .statusCode(200)
                .body("virtual_chassis", nullValue())
                .body("config_template", nullValue())
                .body("console_port_count", equalTo(0))
                .body("inventory_item_count", equalTo(0));
        auth().get("/api/dcim/interfaces/" + d[1] + "/")
                .then()
                .statusCode(200)
                .body("mac_addresses", hasSize(0))
                .body("primary_mac_address", nullValue())
                .body("link_peers", hasSize(0))
                .body("cable_end", equalTo(""))
                .body("count_fhrp_groups", equalTo(0));
        // PoE and radio settings are writable, with NetBox's values and rules
        auth().body(Map.of("poe_type", "type2-ieee802.3at"))
                .patch("/api/dcim/interfaces/" + d[1] + "/")
                .then()
                .statusCode(400)
                .body("poe_type", contains("Must specify PoE mode when designating a PoE type."));
        auth().body(Map.of("poe_mode", "pse", "poe_type", "type2-ieee802.3at", "tx_power", 20))
                .patch("/api/dcim/interfaces/" + d[1] + "/")
                .then()
                .statusCode(200)
                .body("poe_mode.label", equalTo("PSE"))
                .body("poe_type.label", equalTo("802.3at (Type 2)"))
                .body("tx_power", equalTo(20))
                .body("rf_role", nullValue());
    }

    @Test
    void ipFamilyIsAChoiceInBriefAsInFull() {
        int ip = Ipam.ip(Ipam.v4Block() + ".1/24");
        auth().get("/api/ipam/ip-addresses/" + ip + "/?brief=1")
                .then()
                .statusCode(200)
                .body("family.value", equalTo(4))
                .body("family.label", equalTo("IPv4"));
    }

    @Test
    void rackDimensionsAreWritableAndValidated() {
        int site = Api.site("cf");
        String u = uniq();
        Map<String, Object> body =
                new HashMap<>(Map.of("name", "r-" + u, "site", site, "weight", 120.5, "max_weight", 900));
        Api.post("/api/dcim/racks/", body)
                .statusCode(400)
                .body(
                        "__all__",
                        contains(
                                "Must specify a unit when setting a weight",
                                "Must specify a unit when setting a maximum weight"));
        body.putAll(Map.of("weight_unit", "kg", "outer_width", 600, "outer_depth", 1000, "airflow", "sideways"));
        // field errors first; the model's rules run on valid fields only, as in DRF
        Api.post("/api/dcim/racks/", body)
                .statusCode(400)
                .body("airflow", contains("\"sideways\" is not a valid choice."))
                .body("$", not(hasKey("__all__")));
        body.put("airflow", "front-to-rear");
        Api.post("/api/dcim/racks/", body)
                .statusCode(400)
                .body("__all__", contains("Must specify a unit when setting an outer dimension"));
        body.putAll(Map.of("outer_unit", "mm", "mounting_depth", 800));
        int rack = create("/api/dcim/racks/", body);
        auth().get("/api/dcim/racks/" + rack + "/")
                .then()
                .statusCode(200)
                .body("weight", equalTo(120.5f))
                .body("weight_unit.value", equalTo("kg"))
                .body("outer_unit.label", equalTo("Millimeters"))
                .body("airflow.label", equalTo("Front to rear"))
                .body("mounting_depth", equalTo(800))
                .body("rack_type", nullValue())
                .body("powerfeed_count", equalTo(0));
    }

    @Test
    void customFieldNamesAreCaseInsensitiveAndDataTypeIsServed() {
        String name = "Cf_" + uniq().replace('-', '_');
        int cf = create(
                "/api/extras/custom-fields/",
                Map.of("name", name, "type", "integer", "object_types", List.of("dcim.site")));
        auth().get("/api/extras/custom-fields/" + cf + "/")
                .then()
                .statusCode(200)
                .body("data_type", equalTo("integer"))
                .body("choice_set", nullValue())
                .body("related_object_filter", nullValue());
        Api.post(
                        "/api/extras/custom-fields/",
                        Map.of("name", name.toLowerCase(), "type", "text", "object_types", List.of("dcim.site")))
                .statusCode(400)
                .body("__all__", contains("Custom field names must be unique."));
        Api.post(
                        "/api/extras/custom-fields/",
                        Map.of(
                                "name",
                                "rof_" + uniq().replace('-', '_'),
                                "type",
                                "text",
                                "object_types",
                                List.of("dcim.site"),
                                "related_object_filter",
                                Map.of("status", "active")))
                .statusCode(400)
                .body(
                        "related_object_filter",
                        contains("A related object filter can be defined only for object fields."));
    }

    @Test
    void requiredSetsAsNetBox() {
        Api.post("/api/extras/event-rules/", Map.of())
                .statusCode(400)
                .body("action_object_type", contains("This field is required."));
        Api.post("/api/users/users/", Map.of("username", "nopw-" + uniq()))
                .statusCode(400)
                .body("password", contains("This field is required."));
        int user = create("/api/users/users/", Map.of("username", "pw-" + uniq(), "password", Accounts.PASSWORD));
        auth().get("/api/users/users/" + user + "/")
                .then()
                .body("$", not(hasKey("is_staff")))
                .body("$", not(hasKey("password")));
    }

    @Test
    void changeRecordsNameTheActingUser() {
        int site = Api.site("cf");
        auth().get("/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=" + site)
                .then()
                .statusCode(200)
                .body("results[0].user.username", equalTo("admin"))
                .body("results[0].user.url", containsString("/api/users/users/"));
    }

    @Test
    void groupsNestedCarryTheirDisplayUrl() {
        int group = create("/api/users/groups/", Map.of("name", "g-" + uniq()));
        auth().get("/api/users/groups/" + group + "/?brief=1")
                .then()
                .statusCode(200)
                .body("display_url", containsString("/users/groups/" + group));
    }
}
