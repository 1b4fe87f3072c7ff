package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.engine.query.FilterCompiler;

/**
 * NetBox's filters that are not plain field filters, each checked both ways: the
 * object is returned for a matching value and not for another. STRICT_FILTERING is on, so a
 * filter that were not declared would be a 400 instead of being ignored.
 */
@QuarkusTest
class NetBoxFilterSemanticsTest {
    @Inject
    FilterCompiler filters;

    @Inject
    AuthSettings settings;

    private String u;
    private int site;
    private int manufacturer;
    private int deviceType;
    private int device;
    private int iface;

    @BeforeEach
    void deviceWithAnInterface() {
        filters.strictFiltering(true);
        u = Api.uniq();
        site = Api.site("fs");
        manufacturer = create("/api/dcim/manufacturers/", Map.of("name", "fm-" + u, "slug", "fm-" + u));
        deviceType = create(
                "/api/dcim/device-types/",
                Map.of("manufacturer", manufacturer, "model", "Model " + u, "slug", "dt-" + u, "is_full_depth", false));
        int role = create("/api/dcim/device-roles/", Map.of("name", "fr-" + u, "slug", "fr-" + u));
        device = Api.device(site, new int[] {deviceType, role}, "fd-" + u);
        iface = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        // NetBox 4.4: an interface's mac_address is its primary MAC address object's
        int mac = create(
                "/api/dcim/mac-addresses/",
                Map.of(
                        "mac_address",
                        "AA:BB:CC:00:11:22",
                        "assigned_object_type",
                        "dcim.interface",
                        "assigned_object_id",
                        iface));
        auth().contentType("application/json")
                .body(Map.of("primary_mac_address", mac))
                .patch("/api/dcim/interfaces/" + iface + "/")
                .then()
                .statusCode(200);
    }

    @AfterEach
    void configured() {
        filters.strictFiltering(null);
        settings.reset();
    }

    private static List<Integer> ids(String path) {
        return auth().get(path).then().statusCode(200).extract().path("results.id");
    }

    private void devices(String query, boolean returned) {
        org.hamcrest.MatcherAssert.assertThat(
                query,
                ids("/api/dcim/devices/?id=" + device + "&" + query),
                returned ? contains(device) : not(contains(device)));
    }

    private void interfaces(String query, boolean returned) {
        org.hamcrest.MatcherAssert.assertThat(
                query,
                ids("/api/dcim/interfaces/?id=" + iface + "&" + query),
                returned ? contains(iface) : not(contains(iface)));
    }

    /** Counts and members of models not built yet filter as NetBox's fields do with every object unset. */
    @Test
    void unbuiltCountsAndFieldsFilterOnTheirUnsetValue() {
        devices("console_port_count=0", true);
        devices("console_port_count__gt=0", false);
        devices("console_port_count__n=0", false);
        devices("console_port_count__empty=false", true);
        devices("vc_position=1", false);
        devices("vc_position__empty=true", true);
        devices("vc_position__n=1", true);
        devices("console_ports=false", true);
        devices("console_ports=true", false);
        auth().get("/api/dcim/device-types/?id=" + deviceType + "&interface_template_count__lte=0")
                .then()
                .body("results.id", contains(deviceType));
        auth().get("/api/dcim/device-types/?id=" + deviceType + "&has_front_image=true")
                .then()
                .body("count", equalTo(0));
        int vlan = create("/api/ipam/vlans/", Map.of("vid", 100, "name", "fv-" + u));
        auth().get("/api/ipam/vlans/?id=" + vlan + "&qinq_role=svlan").then().body("count", equalTo(0));
        auth().get("/api/ipam/vlans/?id=" + vlan + "&qinq_role__empty=true")
                .then()
                .body("count", equalTo(1));
        auth().get("/api/ipam/vlans/?qinq_role=bogus")
                .then()
                .statusCode(400)
                .body("qinq_role", contains("Select a valid choice. bogus is not one of the available choices."));
        // qinq_svlan is a relation now: a VLAN without a service VLAN matches null, not another VLAN's id
        auth().get("/api/ipam/vlans/?id=" + vlan + "&qinq_svlan_id=" + vlan)
                .then()
                .body("count", equalTo(0));
        auth().get("/api/ipam/vlans/?id=" + vlan + "&qinq_svlan_id=null").then().body("count", equalTo(1));
        interfaces("cable_end=A", false);
        interfaces("connected=false", true);
        auth().get("/api/dcim/interfaces/?cable_end=C").then().statusCode(400).body("$", hasKey("cable_end"));
    }

    /** Filters through relations (NetBox's field_name='device_type__manufacturer__slug' and the like). */
    @Test
    void relationPathFilters() {
        devices("manufacturer=fm-" + u, true);
        devices("manufacturer_id=" + manufacturer, true);
        devices("manufacturer__n=fm-" + u, false);
        devices("model=dt-" + u, true);
        devices("is_full_depth=true", false);
        devices("is_full_depth=false", true);
        int other = create("/api/dcim/manufacturers/", Map.of("name", "fo-" + u, "slug", "fo-" + u));
        devices("manufacturer_id=" + other, false);
        auth().get("/api/dcim/devices/?manufacturer=nope-" + u)
                .then()
                .statusCode(400)
                .body(
                        "manufacturer",
                        contains("Select a valid choice. nope-" + u + " is not one of the available choices."));
        // interfaces: the device's type by model (not slug, as NetBox), the device's tenant
        interfaces("device_type=Model " + u, true);
        interfaces("device_type_id__n=" + deviceType, false);
        auth().get("/api/dcim/interfaces/?device_type=dt-" + u)
                .then()
                .statusCode(400)
                .body("$", hasKey("device_type"));
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "ft-" + u, "slug", "ft-" + u));
        interfaces("tenant=ft-" + u, false);
        auth().body(Map.of("tenant", tenant))
                .patch("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200);
        interfaces("tenant=ft-" + u, true);
        interfaces("tenant_id__n=" + tenant, false);
        // a rack's manufacturer is its rack type's; null matches racks without one (a left join)
        int rack = create("/api/dcim/racks/", Map.of("name", "fk-" + u, "site", site));
        auth().get("/api/dcim/racks/?id=" + rack + "&manufacturer=fm-" + u)
                .then()
                .body("count", equalTo(0));
        auth().get("/api/dcim/racks/?id=" + rack + "&manufacturer_id=null")
                .then()
                .body("count", equalTo(1));
        int rackType = create(
                "/api/dcim/rack-types/",
                Map.of(
                        "manufacturer",
                        manufacturer,
                        "model",
                        "RT " + u,
                        "slug",
                        "rt-" + u,
                        "form_factor",
                        "4-post-frame"));
        auth().body(Map.of("rack_type", rackType))
                .patch("/api/dcim/racks/" + rack + "/")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/racks/?id=" + rack + "&manufacturer=fm-" + u)
                .then()
                .body("count", equalTo(1));
        auth().get("/api/dcim/racks/?id=" + rack + "&manufacturer_id=null")
                .then()
                .body("count", equalTo(0));
        auth().get("/api/dcim/racks/?manufacturer=nope-" + u).then().statusCode(400);
    }

    /** A device's MAC address is its interfaces' (any of them); negated lookups: none of them. */
    @Test
    void childFiltersMatchAnyRelatedObject() {
        devices("mac_address=AA:BB:CC:00:11:22", true);
        devices("mac_address__ic=cc:00", true);
        devices("mac_address__n=AA:BB:CC:00:11:22", false);
        devices("mac_address__nic=cc:00", false);
        devices("mac_address=AA:BB:CC:99:99:99", false);
        devices("mac_address__n=AA:BB:CC:99:99:99", true);
        devices("interfaces=true", true);
    }

    @Test
    void interfaceMethodFilters() {
        interfaces("kind=physical", true);
        interfaces("kind=virtual", false);
        interfaces("kind=nonsense", false);
        interfaces("virtual_chassis_member=fd-" + u, true);
        interfaces("virtual_chassis_member_or_master_id=" + device, true);
        interfaces("virtual_chassis_member_id=987654321", false);
        int vlan = create("/api/ipam/vlans/", Map.of("vid", 3001, "name", "fw-" + u));
        interfaces("vlan_id=" + vlan, false);
        auth().body(Map.of("mode", "access", "untagged_vlan", vlan))
                .patch("/api/dcim/interfaces/" + iface + "/")
                .then()
                .statusCode(200);
        interfaces("vlan_id=" + vlan, true);
        interfaces("vlan=3001", true);
        interfaces("vlan=3002", false);
    }

    /** rf_channel: only on wireless interfaces; its frequency and width are filled in, as NetBox's save(). */
    @Test
    void wirelessChannel() {
        auth().body(Map.of("rf_channel", "5g-36-5180-20"))
                .patch("/api/dcim/interfaces/" + iface + "/")
                .then()
                .statusCode(400)
                .body("rf_channel", contains("Channel may be set only on wireless interfaces."));
        int radio = create(
                "/api/dcim/interfaces/",
                Map.of("device", device, "name", "wlan0", "type", "ieee802.11ac", "rf_channel", "5g-36-5180-20"));
        auth().get("/api/dcim/interfaces/" + radio + "/")
                .then()
                .statusCode(200)
                .body("rf_channel.value", equalTo("5g-36-5180-20"))
                .body("rf_channel.label", equalTo("36 (5180/20 MHz)"))
                .body("rf_channel_frequency", equalTo(5180.0f))
                .body("rf_channel_width", equalTo(20.0f));
        auth().body(Map.of("rf_channel_frequency", 5200))
                .patch("/api/dcim/interfaces/" + radio + "/")
                .then()
                .statusCode(400)
                .body("rf_channel_frequency", contains("Cannot specify custom frequency with channel selected."));
        auth().get("/api/dcim/interfaces/?device_id=" + device + "&rf_channel__isw=5g-36")
                .then()
                .body("results.id", contains(radio));
        auth().get("/api/dcim/interfaces/?device_id=" + device + "&kind=wireless")
                .then()
                .body("results.id", contains(radio));
    }

    @Test
    void availabilityFilters() {
        int otherSite = Api.site("fo");
        int here = create("/api/ipam/vlans/", Map.of("vid", 10, "name", "fh-" + u, "site", site));
        int there = create("/api/ipam/vlans/", Map.of("vid", 10, "name", "fx-" + u, "site", otherSite));
        int global = create("/api/ipam/vlans/", Map.of("vid", 11, "name", "fg-" + u));
        String group = "fgrp-" + u;
        int scoped = create(
                "/api/ipam/vlan-groups/",
                Map.of("name", group, "slug", group, "scope_type", "dcim.site", "scope_id", site));
        int inGroup = create("/api/ipam/vlans/", Map.of("vid", 12, "name", "fi-" + u, "group", scoped));
        String mine = "&id=" + here + "&id=" + there + "&id=" + global + "&id=" + inGroup;
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/ipam/vlans/?available_at_site=" + site + mine), containsInAnyOrder(here, global, inGroup));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/ipam/vlans/?available_on_device=" + device + mine),
                containsInAnyOrder(here, global, inGroup));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/ipam/vlans/?available_at_site=" + otherSite + mine), containsInAnyOrder(there, global));
        auth().get("/api/ipam/vlans/?available_at_site=987654321").then().statusCode(400);
        // platforms of the device type's manufacturer, or of none
        int own = create(
                "/api/dcim/platforms/", Map.of("name", "fp-" + u, "slug", "fp-" + u, "manufacturer", manufacturer));
        int any = create("/api/dcim/platforms/", Map.of("name", "fq-" + u, "slug", "fq-" + u));
        int foreign = create(
                "/api/dcim/platforms/",
                Map.of(
                        "name",
                        "fz-" + u,
                        "slug",
                        "fz-" + u,
                        "manufacturer",
                        create("/api/dcim/manufacturers/", Map.of("name", "fy-" + u, "slug", "fy-" + u))));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/dcim/platforms/?available_for_device_type=" + deviceType + "&id=" + own + "&id=" + any
                        + "&id=" + foreign),
                containsInAnyOrder(own, any));
    }

    @Test
    void usersGroupsPermissionsAndTokens() {
        String groupName = "fgroup-" + u;
        int group = create("/api/users/groups/", Map.of("name", groupName));
        String username = "fuser-" + u;
        int user = create(
                "/api/users/users/",
                Map.of("username", username, "password", "Secret-Passw0rd-" + u, "groups", List.of(group)));
        int other = create("/api/users/users/", Map.of("username", "fother-" + u, "password", "Secret-Passw0rd-" + u));
        int permission = create(
                "/api/users/permissions/",
                Map.of(
                        "name",
                        "fperm-" + u,
                        "object_types",
                        List.of("dcim.site"),
                        "actions",
                        List.of("view", "change"),
                        "users",
                        List.of(user),
                        "groups",
                        List.of(group)));
        String both = "&id=" + user + "&id=" + other;
        org.hamcrest.MatcherAssert.assertThat(ids("/api/users/users/?group=" + groupName + both), contains(user));
        org.hamcrest.MatcherAssert.assertThat(ids("/api/users/users/?group_id__n=" + group + both), contains(other));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/users/users/?permission_id=" + permission + both), contains(user));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/users/users/?is_superuser=false" + both), containsInAnyOrder(user, other));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/users/groups/?user_id=" + user + "&id=" + group), contains(group));
        auth().get("/api/users/groups/?user_id=" + other + "&id=" + group)
                .then()
                .body("count", equalTo(0));
        auth().get("/api/users/groups/?user_id=987654321").then().statusCode(400);
        String perm = "&id=" + permission;
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/users/permissions/?user=" + username + perm), contains(permission));
        auth().get("/api/users/permissions/?user__n=" + username + perm).then().body("count", equalTo(0));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/users/permissions/?group_id=" + group + "&can_change=true" + perm), contains(permission));
        auth().get("/api/users/permissions/?can_delete=true" + perm).then().body("count", equalTo(0));
        auth().get("/api/users/permissions/?user=nobody-" + u).then().statusCode(400);
        int token = create("/api/users/tokens/", Map.of("user", user));
        org.hamcrest.MatcherAssert.assertThat(ids("/api/users/tokens/?user=" + username), contains(token));
    }

    /**
     * key= and its lookups filter v2 tokens' public keys, as NetBox 4.5+ does; a v1 token's key
     * is not stored (only its digest), so no filter finds it or guesses it a character at a time.
     */
    @Test
    void tokenKeyFiltersSeeOnlyV2Keys() {
        String key = ("f" + u + "0".repeat(40)).substring(0, 40);
        int me = auth().get("/api/authentication-check/").then().extract().path("id");
        create("/api/users/tokens/", Map.of("user", me, "key", key));
        String prefix = key.substring(0, 12);
        auth().get("/api/users/tokens/?key=" + key).then().statusCode(200).body("count", equalTo(0));
        auth().get("/api/users/tokens/?key__isw=" + prefix)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        io.restassured.response.ExtractableResponse<io.restassured.response.Response> v2 = Api.post(
                        "/api/users/tokens/", Map.of("user", me, "version", 2))
                .statusCode(201)
                .extract();
        int v2Id = v2.path("id");
        String v2Key = v2.path("key");
        org.hamcrest.MatcherAssert.assertThat(ids("/api/users/tokens/?key=" + v2Key), contains(v2Id));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/users/tokens/?key__isw=" + v2Key.substring(0, 8)), contains(v2Id));
    }

    /**
     * Object-type ids name core/object-types: an id is resolved to its model there, an id naming
     * no object type is a 400 (no guess that could pick the wrong objects), null matches objects
     * without a type.
     */
    @Test
    void objectTypeIdsNameCoreObjectTypes() {
        int field =
                create("/api/extras/custom-fields/", Map.of("name", "ff_" + u, "object_types", List.of("dcim.site")));
        int siteType = auth().get("/api/core/object-types/?app_label=dcim&model=site")
                .then()
                .statusCode(200)
                .extract()
                .path("results[0].id");
        int deviceType = auth().get("/api/core/object-types/?app_label=dcim&model=device")
                .then()
                .statusCode(200)
                .extract()
                .path("results[0].id");
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/extras/custom-fields/?id=" + field + "&object_type_id=" + siteType), contains(field));
        auth().get("/api/extras/custom-fields/?id=" + field + "&object_type_id=" + deviceType)
                .then()
                .body("count", equalTo(0));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/extras/custom-fields/?id=" + field + "&object_type_id__n=" + deviceType), contains(field));
        auth().get("/api/extras/custom-fields/?object_type_id=987654")
                .then()
                .statusCode(400)
                .body("object_type_id", contains("Select a valid choice. 987654 is not one of the available choices."));
        auth().get("/api/extras/custom-fields/?id=" + field + "&related_object_type_id=null")
                .then()
                .body("count", equalTo(1));
        auth().get("/api/extras/custom-fields/?id=" + field + "&object_type_id__n=null")
                .then()
                .body("count", equalTo(1));
        auth().get("/api/core/object-changes/?changed_object_type_id=" + siteType)
                .then()
                .statusCode(200);
        auth().get("/api/core/object-changes/?changed_object_type_id=987654")
                .then()
                .statusCode(400);
        int tag = create("/api/extras/tags/", Map.of("name", "fg-" + u, "slug", "fg-" + u));
        int restricted = create(
                "/api/extras/tags/",
                Map.of("name", "fr-" + u, "slug", "fr-" + u, "object_types", List.of("dcim.device")));
        auth().body(Map.of("tags", List.of(tag)))
                .patch("/api/dcim/devices/" + device + "/")
                .then()
                .statusCode(200);
        String both = "&id=" + tag + "&id=" + restricted;
        org.hamcrest.MatcherAssert.assertThat(ids("/api/extras/tags/?content_type=dcim.device" + both), contains(tag));
        auth().get("/api/extras/tags/?content_type_id=1" + both).then().body("count", equalTo(0));
        org.hamcrest.MatcherAssert.assertThat(ids("/api/extras/tags/?for_object_type_id=1" + both), contains(tag));
        org.hamcrest.MatcherAssert.assertThat(
                ids("/api/extras/tags/?object_types__n=dcim.device" + both), contains(tag));
        auth().get("/api/extras/tags/?object_types=987654").then().statusCode(400);
    }

    /** By default an unknown filter is ignored, but the filters that identify objects all exist. */
    @Test
    void identifyingFiltersAreNeverIgnored() {
        filters.strictFiltering(null);
        auth().get("/api/users/tokens/?key__ie=" + "0".repeat(40))
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        auth().get("/api/dcim/interfaces/?device_type=nope-" + u).then().statusCode(400);
        auth().get("/api/dcim/devices/?model=nope-" + u).then().statusCode(400);
    }
}
