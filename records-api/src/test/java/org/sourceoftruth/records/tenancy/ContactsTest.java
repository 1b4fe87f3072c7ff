package org.sourceoftruth.records.tenancy;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Contacts: groups (a tree), roles, contacts in several groups, and their assignments to objects. */
@QuarkusTest
class ContactsTest {

    @Test
    void contactsBelongToGroupsAndGroupFiltersMatchDescendants() {
        String u = uniq();
        int parent = create("/api/tenancy/contact-groups/", Map.of("name", "ops " + u, "slug", "ops-" + u));
        int child = create(
                "/api/tenancy/contact-groups/", Map.of("name", "noc " + u, "slug", "noc-" + u, "parent", parent));
        int other = create("/api/tenancy/contact-groups/", Map.of("name", "sales " + u, "slug", "sales-" + u));
        int alice = create(
                "/api/tenancy/contacts/",
                Map.of("name", "Alice " + u, "email", "alice@example.com", "groups", List.of(child, other)));
        int bob = create("/api/tenancy/contacts/", Map.of("name", "Bob " + u, "groups", List.of(other)));

        auth().get("/api/tenancy/contacts/" + alice + "/")
                .then()
                .statusCode(200)
                .body("groups.id", containsInAnyOrder(child, other))
                .body("email", equalTo("alice@example.com"));
        auth().get("/api/tenancy/contact-groups/" + child + "/")
                .then()
                .body("parent.id", equalTo(parent))
                .body("_depth", equalTo(1))
                .body("contact_count", equalTo(1));
        // a parent group matches the contacts of the groups below it
        auth().get("/api/tenancy/contacts/?group_id=" + parent).then().body("results.id", contains(alice));
        auth().get("/api/tenancy/contacts/?group=sales-" + u).then().body("results.id", containsInAnyOrder(alice, bob));
        auth().get("/api/tenancy/contact-groups/?contact_id=" + bob).then().body("results.id", contains(other));
        auth().get("/api/tenancy/contacts/?group_id=999999999").then().statusCode(400);
        post("/api/tenancy/contacts/", Map.of("name", "Carol", "email", "not-an-address"))
                .statusCode(400)
                .body("email", hasItem("Enter a valid email address."));
    }

    @Test
    void assignmentsAreUniquePerObjectContactAndRoleAndOnlyOnServedHolders() {
        String u = uniq();
        int site = Api.site("ct");
        int contact = create("/api/tenancy/contacts/", Map.of("name", "Dana " + u));
        int role = create("/api/tenancy/contact-roles/", Map.of("name", "Admin " + u, "slug", "admin-" + u));
        int other = create("/api/tenancy/contact-roles/", Map.of("name", "Ops " + u, "slug", "ops-" + u));
        Map<String, Object> body = Map.of(
                "object_type", "dcim.site", "object_id", site, "contact", contact, "role", role, "priority", "primary");
        int assignment = create("/api/tenancy/contact-assignments/", body);
        auth().get("/api/tenancy/contact-assignments/" + assignment + "/")
                .then()
                .statusCode(200)
                .body("object.id", equalTo(site))
                .body("object_type", equalTo("dcim.site"))
                .body("contact.id", equalTo(contact))
                .body("role.id", equalTo(role))
                .body("priority.value", equalTo("primary"))
                .body("priority.label", equalTo("Primary"))
                .body("display_url", nullValue());

        post("/api/tenancy/contact-assignments/", body)
                .statusCode(400)
                .body(
                        "__all__",
                        hasItem(
                                "Contact assignment with this Object type, Object id, Contact and Role already exists."));
        // another role is another assignment
        create(
                "/api/tenancy/contact-assignments/",
                Map.of("object_type", "dcim.site", "object_id", site, "contact", contact, "role", other));
        // contacts go on the models NetBox allows, and only on existing objects
        int iface = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        Api.device(site, Api.deviceTypeAndRole(), "d-" + u),
                        "name",
                        "eth0",
                        "type",
                        "1000base-t"));
        post(
                        "/api/tenancy/contact-assignments/",
                        Map.of("object_type", "dcim.interface", "object_id", iface, "contact", contact))
                .statusCode(400)
                .body("object_type", hasItem("Invalid content type: dcim.interface"));
        post(
                        "/api/tenancy/contact-assignments/",
                        Map.of("object_type", "vpn.tunnel", "object_id", 1, "contact", contact))
                .statusCode(400);
        post(
                        "/api/tenancy/contact-assignments/",
                        Map.of("object_type", "dcim.site", "object_id", 999999999, "contact", contact))
                .statusCode(400);
        post("/api/tenancy/contact-assignments/", Map.of("object_type", "dcim.site", "object_id", site))
                .statusCode(400)
                .body("contact", hasItem("This field is required."));
        auth().get("/api/tenancy/contact-assignments/?object_type=dcim.site&object_id=" + site + "&role_id=" + other)
                .then()
                .body("count", equalTo(1));
    }

    @Test
    void contactFiltersOnAHolderGoThroughItsAssignments() {
        String u = uniq();
        int site = Api.site("cf");
        int plain = Api.site("cf");
        int group = create("/api/tenancy/contact-groups/", Map.of("name", "g " + u, "slug", "g-" + u));
        int sub = create("/api/tenancy/contact-groups/", Map.of("name", "s " + u, "slug", "s-" + u, "parent", group));
        int contact = create("/api/tenancy/contacts/", Map.of("name", "Eve " + u, "groups", List.of(sub)));
        int role = create("/api/tenancy/contact-roles/", Map.of("name", "Tech " + u, "slug", "tech-" + u));
        create(
                "/api/tenancy/contact-assignments/",
                Map.of("object_type", "dcim.site", "object_id", site, "contact", contact, "role", role));
        String both = "&id=" + site + "&id=" + plain;

        auth().get("/api/dcim/sites/?contact=" + contact + both).then().body("results.id", contains(site));
        auth().get("/api/dcim/sites/?contact__n=" + contact + both).then().body("results.id", contains(plain));
        auth().get("/api/dcim/sites/?contact_role=" + role + both).then().body("results.id", contains(site));
        auth().get("/api/dcim/sites/?contact_group=" + group + both).then().body("results.id", contains(site));
        auth().get("/api/dcim/sites/?contact=999999999").then().statusCode(400);
        // the same filters on another holder see only that holder's assignments
        auth().get("/api/tenancy/tenants/?contact=" + contact)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
    }

    @Test
    void deletingAContactOrItsObjectDeletesTheAssignmentsWithChangeRecords() {
        String u = uniq();
        int site = Api.site("cd");
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "t " + u, "slug", "t-" + u));
        int contact = create("/api/tenancy/contacts/", Map.of("name", "Finn " + u));
        int onSite = create(
                "/api/tenancy/contact-assignments/",
                Map.of("object_type", "dcim.site", "object_id", site, "contact", contact));
        int onTenant = create(
                "/api/tenancy/contact-assignments/",
                Map.of("object_type", "tenancy.tenant", "object_id", tenant, "contact", contact));

        Response deleted = auth().delete("/api/dcim/sites/" + site + "/");
        assertEquals(204, deleted.statusCode());
        auth().get("/api/tenancy/contact-assignments/" + onSite + "/").then().statusCode(404);
        assertEquals(
                List.of("tenancy.contactassignment:" + onSite + ":delete", "dcim.site:" + site + ":delete"),
                changes(deleted.header("X-Request-ID")));

        deleted = auth().delete("/api/tenancy/contacts/" + contact + "/");
        assertEquals(204, deleted.statusCode());
        auth().get("/api/tenancy/contact-assignments/" + onTenant + "/").then().statusCode(404);
        auth().get("/api/tenancy/tenants/" + tenant + "/").then().statusCode(200);
        assertEquals(
                List.of("tenancy.contactassignment:" + onTenant + ":delete", "tenancy.contact:" + contact + ":delete"),
                changes(deleted.header("X-Request-ID")));
    }

    /** The change records of one request, oldest first, as type:id:action. */
    private static List<String> changes(String requestId) {
        List<Map<String, Object>> results = auth().get(
                        "/api/core/object-changes/?request_id=" + requestId + "&ordering=id")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("results");
        return results.stream()
                .map(r -> r.get("changed_object_type") + ":" + r.get("changed_object_id") + ":"
                        + ((Map<?, ?>) r.get("action")).get("value"))
                .toList();
    }
}
