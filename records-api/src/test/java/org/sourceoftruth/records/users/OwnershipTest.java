package org.sourceoftruth.records.users;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * Resource ownership (NetBox 4.5): owners and owner groups, the {@code owner} of every owned
 * model (rendered in the owner's brief form, written by id or attributes, filtered by owner,
 * owner_id, owner_group, owner_group_id), delete protection, the member filters on users and
 * groups, and permission constraints that follow ownership.
 */
@QuarkusTest
class OwnershipTest {
    @Inject
    ModelRegistry registry;

    private record Owners(int group, String groupName, int owner, String ownerName, int other) {}

    private static Owners owners() {
        String u = uniq();
        int group = create("/api/users/owner-groups/", Map.of("name", "og-" + u, "description", "ops"));
        int owner = create(
                "/api/users/owners/", Map.of("name", "own-" + u, "group", group, "description", "the network team"));
        Map<String, Object> noGroup = new HashMap<>();
        noGroup.put("name", "other-" + u);
        noGroup.put("group", null);
        int other = create("/api/users/owners/", noGroup);
        return new Owners(group, "og-" + u, owner, "own-" + u, other);
    }

    /** The owned models are exactly the endpoints NetBox 4.6 gives an owner (the contract's table). */
    @Test
    void everyModelNetBoxGivesAnOwnerHasOne() throws Exception {
        com.fasterxml.jackson.databind.JsonNode endpoints;
        try (var in = OwnershipTest.class.getResourceAsStream("/contract/netbox-4.6-contract.json")) {
            endpoints = Json.MAPPER.readTree(in).get("endpoints");
        }
        Set<String> expected = new TreeSet<>();
        endpoints.fields().forEachRemaining(e -> {
            if (e.getValue().path("fields").has("owner")
                    && e.getValue().path("kind").asText().equals("model")) {
                expected.add(e.getKey());
            }
        });
        Set<String> owned = new TreeSet<>();
        for (Model m : registry.all()) {
            Field owner = m.field("owner");
            if (owner != null && !owner.isUnrendered()) {
                assertEquals(Kind.FK, owner.kind, m.contentType());
                assertEquals("users.owner", owner.target(), m.contentType());
                assertEquals(Field.OnDelete.PROTECT, owner.onDelete(), m.contentType());
                owned.add(m.app() + "/" + m.path());
            }
        }
        assertEquals(expected, owned);
        assertTrue(owned.size() >= 90, "owned models: " + owned.size());
    }

    @Test
    void ownersAndGroupsRenderAsNetBoxs() {
        Owners o = owners();
        int user = Accounts.account("member").id();
        int userGroup = create("/api/users/groups/", Map.of("name", "ug-" + uniq()));
        auth().body(Map.of("users", List.of(user), "user_groups", List.of(userGroup)))
                .patch("/api/users/owners/" + o.owner() + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo(o.ownerName()))
                .body("group.id", equalTo(o.group()))
                .body("group.name", equalTo(o.groupName()))
                .body("users.id", contains(user))
                .body("user_groups.id", contains(userGroup));
        auth().get("/api/users/owner-groups/" + o.group() + "/")
                .then()
                .statusCode(200)
                .body("member_count", equalTo(1))
                .body("description", equalTo("ops"));
        auth().get("/api/users/owners/" + o.owner() + "/?brief=1")
                .then()
                .statusCode(200)
                .body("keySet()", containsInAnyOrder("id", "url", "display", "name", "description"));
        // the group key is required, null included (NetBox's serializer)
        auth().body(Map.of("name", "nogroup-" + uniq()))
                .post("/api/users/owners/")
                .then()
                .statusCode(400)
                .body("group", contains("This field is required."));
        auth().body(Map.of("name", o.ownerName(), "group", o.group()))
                .post("/api/users/owners/")
                .then()
                .statusCode(400)
                .body("name", contains("owner with this name already exists."));
        // owner filters on the owners' members
        auth().get("/api/users/users/?owner_id=" + o.owner())
                .then()
                .statusCode(200)
                .body("results.id", contains(user));
        auth().get("/api/users/users/?owner=" + o.ownerName())
                .then()
                .statusCode(200)
                .body("results.id", contains(user));
        auth().get("/api/users/groups/?owner_id=" + o.owner())
                .then()
                .statusCode(200)
                .body("results.id", contains(userGroup));
        auth().get("/api/users/owners/?user_id=" + user + "&group_id=" + o.group())
                .then()
                .statusCode(200)
                .body("results.id", contains(o.owner()));
        auth().get("/api/users/owners/?user_group=" + "ug-nothing").then().statusCode(400);
    }

    @Test
    void anOwnedObjectTakesItsOwnerAndIsFilteredByIt() {
        Owners o = owners();
        String u = uniq();
        int owned = create(
                "/api/dcim/sites/",
                Map.of("name", "os-" + u, "slug", "os-" + u, "owner", Map.of("name", o.ownerName())));
        int other = create("/api/dcim/sites/", Map.of("name", "ox-" + u, "slug", "ox-" + u, "owner", o.other()));
        int none = Api.site("on-" + u);
        auth().get("/api/dcim/sites/" + owned + "/")
                .then()
                .statusCode(200)
                .body("owner.id", equalTo(o.owner()))
                .body("owner.keySet()", containsInAnyOrder("id", "url", "display", "name", "description"))
                .body("owner.description", equalTo("the network team"));
        auth().get("/api/dcim/sites/" + none + "/").then().statusCode(200).body("owner", nullValue());
        String mine = "/api/dcim/sites/?slug__ic=" + u;
        auth().get(mine + "&owner_id=" + o.owner()).then().body("results.id", contains(owned));
        auth().get(mine + "&owner=" + o.ownerName()).then().body("results.id", contains(owned));
        auth().get(mine + "&owner_group_id=" + o.group()).then().body("results.id", contains(owned));
        auth().get(mine + "&owner_group=" + o.groupName()).then().body("results.id", contains(owned));
        auth().get(mine + "&owner_id__n=" + o.owner() + "&ordering=id")
                .then()
                .body("results.id", contains(other, none));
        auth().get(mine + "&owner=no-such-owner")
                .then()
                .statusCode(400)
                .body("owner[0]", org.hamcrest.Matchers.startsWith("Select a valid choice."));
        // a component and an extras model carry it the same way
        int device = Api.device(owned, Api.deviceTypeAndRole(), "od-" + u);
        int iface = create(
                "/api/dcim/interfaces/",
                Map.of("device", device, "name", "eth0", "type", "1000base-t", "owner", o.owner()));
        auth().get("/api/dcim/interfaces/?owner_id=" + o.owner())
                .then()
                .statusCode(200)
                .body("results.id", contains(iface));
        // tags have an owner NetBox's API neither shows nor writes, only filters on
        int tag = create("/api/extras/tags/", Map.of("name", "ot-" + u, "slug", "ot-" + u, "owner", o.owner()));
        auth().get("/api/extras/tags/" + tag + "/").then().statusCode(200).body("$", not(hasKey("owner")));
        auth().get("/api/extras/tags/?owner_id=" + o.owner() + "&slug=ot-" + u)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        auth().get("/api/extras/tags/?owner_id__n=" + o.owner() + "&slug=ot-" + u)
                .then()
                .statusCode(200)
                .body("results.id", contains(tag));
        // unowning
        Map<String, Object> clear = new HashMap<>();
        clear.put("owner", null);
        auth().body(clear)
                .patch("/api/dcim/interfaces/" + iface + "/")
                .then()
                .statusCode(200)
                .body("owner", nullValue());
    }

    @Test
    void anOwnerWithObjectsCannotBeDeleted() {
        Owners o = owners();
        int site =
                create("/api/dcim/sites/", Map.of("name", "pd-" + uniq(), "slug", "pd-" + uniq(), "owner", o.owner()));
        auth().delete("/api/users/owners/" + o.owner() + "/").then().statusCode(409);
        auth().delete("/api/users/owner-groups/" + o.group() + "/").then().statusCode(409);
        auth().get("/api/dcim/sites/" + site + "/").then().statusCode(200).body("owner.id", equalTo(o.owner()));
        auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        auth().delete("/api/users/owners/" + o.owner() + "/").then().statusCode(204);
        auth().delete("/api/users/owner-groups/" + o.group() + "/").then().statusCode(204);
    }

    @Test
    void ownershipChangesAreLogged() {
        Owners o = owners();
        int site = Api.site("ol");
        String request = auth().body(Map.of("owner", o.owner()))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .extract()
                .header("X-Request-ID");
        auth().get("/api/core/object-changes/?request_id=" + request)
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].changed_object_type", equalTo("dcim.site"))
                .body("results[0].prechange_data.owner", nullValue())
                .body("results[0].postchange_data.owner", equalTo(o.owner()));
        auth().get("/api/core/object-changes/?changed_object_type=users.owner&changed_object_id=" + o.owner())
                .then()
                .statusCode(200)
                .body("results.action.value", hasItem("create"))
                .body("results[0].postchange_data.name", equalTo(o.ownerName()));
    }

    /**
     * Ownership grants nothing by itself; a permission's constraints may follow it: here a user
     * may view and change the sites owned by an owner it is a member of, and nothing else.
     */
    @Test
    void permissionConstraintsMayFollowOwnership() {
        Owners o = owners();
        Account member = Accounts.account("owned");
        auth().body(Map.of("users", List.of(member.id())))
                .patch("/api/users/owners/" + o.owner() + "/")
                .then()
                .statusCode(200);
        String u = uniq();
        int mine = create("/api/dcim/sites/", Map.of("name", "pm-" + u, "slug", "pm-" + u, "owner", o.owner()));
        int theirs = create("/api/dcim/sites/", Map.of("name", "pt-" + u, "slug", "pt-" + u, "owner", o.other()));
        Accounts.permission(
                List.of("dcim.site"), List.of("view", "change"), Map.of("owner__users", "$user"), List.of(member.id()));
        member.api()
                .get("/api/dcim/sites/?slug__ic=" + u)
                .then()
                .statusCode(200)
                .body("results.id", contains(mine));
        member.api()
                .body(Map.of("description", "mine"))
                .patch("/api/dcim/sites/" + mine + "/")
                .then()
                .statusCode(200);
        member.api()
                .body(Map.of("description", "theirs"))
                .patch("/api/dcim/sites/" + theirs + "/")
                .then()
                .statusCode(404);
        // giving the object away takes it out of the member's reach: refused, nothing changes
        member.api()
                .body(Map.of("owner", o.other()))
                .patch("/api/dcim/sites/" + mine + "/")
                .then()
                .statusCode(403);
        auth().get("/api/dcim/sites/" + mine + "/").then().body("owner.id", equalTo(o.owner()));
        List<Integer> ids = new ArrayList<>(List.of(mine, theirs));
        ids.forEach(id -> auth().delete("/api/dcim/sites/" + id + "/").then().statusCode(204));
    }
}
