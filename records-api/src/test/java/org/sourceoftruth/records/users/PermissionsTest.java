package org.sourceoftruth.records.users;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Accounts.Account;
import org.sourceoftruth.records.Api;

/** Object permissions: model-level grants, constraints on lists, reads and writes, groups, $user. */
@QuarkusTest
class PermissionsTest {
    private static final String FORBIDDEN = "You do not have permission to perform this action.";

    /** Two tenants with one site each; returns {tenantA slug, tenantB id, siteA, siteB, tenantA id}. */
    private record Fixture(String tenantA, int tenantAId, int tenantBId, int siteA, int siteB, String mark) {}

    private Fixture twoTenants() {
        String u = uniq();
        int a = create("/api/tenancy/tenants/", Map.of("name", "ta-" + u, "slug", "ta-" + u));
        int b = create("/api/tenancy/tenants/", Map.of("name", "tb-" + u, "slug", "tb-" + u));
        int siteA = create("/api/dcim/sites/", Map.of("name", "sa-" + u, "slug", "sa-" + u, "tenant", a));
        int siteB = create("/api/dcim/sites/", Map.of("name", "sb-" + u, "slug", "sb-" + u, "tenant", b));
        return new Fixture("ta-" + u, a, b, siteA, siteB, u);
    }

    @Test
    void withoutPermissionEverythingIsRefused() {
        Account nobody = Accounts.account("nobody");
        int site = Api.site("np");
        nobody.api().get("/api/dcim/sites/").then().statusCode(403).body("detail", equalTo(FORBIDDEN));
        nobody.api().get("/api/dcim/sites/" + site + "/").then().statusCode(403).body("detail", equalTo(FORBIDDEN));
        nobody.api()
                .body(Map.of("name", "x", "slug", "x"))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403);
        nobody.api().delete("/api/dcim/sites/" + site + "/").then().statusCode(403);
        // OPTIONS needs no permission, but shows no write actions
        nobody.api().options("/api/dcim/sites/").then().statusCode(200).body("$", not(hasKey("actions")));
        nobody.api().get("/api/users/users/").then().statusCode(403);
        nobody.api().get("/api/users/permissions/").then().statusCode(403);
    }

    @Test
    void constraintsFilterListsAndDetails() {
        Fixture f = twoTenants();
        Account user = Accounts.account("acme");
        Accounts.permission(
                List.of("dcim.site"), List.of("view"), Map.of("tenant__slug", f.tenantA()), List.of(user.id()));
        user.api()
                .get("/api/dcim/sites/?name__ic=" + f.mark())
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results.id", contains(f.siteA()));
        user.api()
                .get("/api/dcim/sites/?limit=2&name__ic=" + f.mark())
                .then()
                .statusCode(200)
                .body("count", equalTo(1));
        user.api().get("/api/dcim/sites/" + f.siteA() + "/").then().statusCode(200);
        user.api()
                .get("/api/dcim/sites/" + f.siteB() + "/")
                .then()
                .statusCode(404)
                .body("detail", equalTo("No Site matches the given query."));
        // the superuser still sees both
        auth().get("/api/dcim/sites/?name__ic=" + f.mark())
                .then()
                .statusCode(200)
                .body("count", equalTo(2));
        // view-only: no writes, and OPTIONS shows no actions
        user.api()
                .body(Map.of("description", "x"))
                .patch("/api/dcim/sites/" + f.siteA() + "/")
                .then()
                .statusCode(403)
                .body("detail", equalTo(FORBIDDEN));
        user.api().options("/api/dcim/sites/").then().statusCode(200).body("$", not(hasKey("actions")));
    }

    @Test
    void writesOutsideTheConstraintsAreRefusedAndRolledBack() {
        Fixture f = twoTenants();
        Account user = Accounts.account("writer");
        Accounts.permission(
                List.of("dcim.site"),
                List.of("view", "add", "change", "delete"),
                Map.of("tenant__slug", f.tenantA()),
                List.of(user.id()));
        user.api().options("/api/dcim/sites/").then().statusCode(200).body("actions", hasKey("POST"));
        String inB = "nb-" + f.mark();
        user.api()
                .body(Map.of("name", inB, "slug", inB, "tenant", f.tenantBId()))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403)
                .body("detail", equalTo(FORBIDDEN));
        auth().get("/api/dcim/sites/?name=" + inB).then().statusCode(200).body("count", equalTo(0));
        // a bulk create with one object outside is refused as a whole
        String okName = "na-" + f.mark();
        user.api()
                .body(List.of(
                        Map.of("name", okName, "slug", okName, "tenant", f.tenantAId()),
                        Map.of("name", inB, "slug", inB, "tenant", f.tenantBId())))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403);
        auth().get("/api/dcim/sites/?name=" + okName).then().statusCode(200).body("count", equalTo(0));
        int created = user.api()
                .body(Map.of("name", okName, "slug", okName, "tenant", f.tenantAId()))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        // moving a site out of the constraints is refused and changes nothing
        user.api()
                .body(Map.of("tenant", f.tenantBId(), "description", "moved"))
                .patch("/api/dcim/sites/" + created + "/")
                .then()
                .statusCode(403);
        auth().get("/api/dcim/sites/" + created + "/")
                .then()
                .statusCode(200)
                .body("tenant.id", equalTo(f.tenantAId()))
                .body("description", equalTo(""));
        // objects outside are not found for change and delete
        user.api()
                .body(Map.of("description", "x"))
                .patch("/api/dcim/sites/" + f.siteB() + "/")
                .then()
                .statusCode(404);
        user.api().delete("/api/dcim/sites/" + f.siteB() + "/").then().statusCode(404);
        user.api()
                .body(List.of(Map.of("id", f.siteB(), "description", "x")))
                .patch("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .body("[0].id", contains("Object with id " + f.siteB() + " does not exist."));
        user.api().delete("/api/dcim/sites/" + created + "/").then().statusCode(204);
        auth().get("/api/dcim/sites/" + f.siteB() + "/").then().statusCode(200).body("description", equalTo(""));
    }

    @Test
    void listOfConstraintSetsIsAnOrAndGroupsGrantToMembers() {
        Fixture f = twoTenants();
        Account user = Accounts.account("grp");
        int group = create("/api/users/groups/", Map.of("name", "grp-" + f.mark()));
        auth().body(Map.of("groups", List.of(group)))
                .patch("/api/users/users/" + user.id() + "/")
                .then()
                .statusCode(200);
        create(
                "/api/users/permissions/",
                Map.of(
                        "name",
                        "or-" + f.mark(),
                        "object_types",
                        List.of("dcim.site"),
                        "actions",
                        List.of("view"),
                        "groups",
                        List.of(group),
                        "constraints",
                        List.of(Map.of("tenant", f.tenantAId()), Map.of("slug__iexact", "SB-" + f.mark()))));
        user.api()
                .get("/api/dcim/sites/?name__ic=" + f.mark())
                .then()
                .statusCode(200)
                .body("results.id", containsInAnyOrder(f.siteA(), f.siteB()));
        // a disabled permission grants nothing
        int off = create(
                "/api/users/permissions/",
                Map.of(
                        "name",
                        "off-" + f.mark(),
                        "enabled",
                        false,
                        "object_types",
                        List.of("tenancy.tenant"),
                        "actions",
                        List.of("view"),
                        "users",
                        List.of(user.id())));
        user.api().get("/api/tenancy/tenants/").then().statusCode(403);
        auth().body(Map.of("enabled", true))
                .patch("/api/users/permissions/" + off + "/")
                .then()
                .statusCode(200);
        user.api().get("/api/tenancy/tenants/").then().statusCode(200);
    }

    @Test
    void relatedObjectsByAttributesMustBeVisible() {
        Fixture f = twoTenants();
        Account user = Accounts.account("attr");
        Accounts.permission(List.of("dcim.site"), List.of("view", "add"), null, List.of(user.id()));
        String n = "at-" + f.mark();
        Map<String, Object> byAttributes = Map.of("name", n, "slug", n, "tenant", Map.of("slug", f.tenantA()));
        user.api()
                .body(byAttributes)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .body(
                        "tenant",
                        contains("Related object not found using the provided attributes: {'slug': '" + f.tenantA()
                                + "'}"));
        // an id is never restricted
        String byId = "ai-" + f.mark();
        user.api()
                .body(Map.of("name", byId, "slug", byId, "tenant", f.tenantBId()))
                .post("/api/dcim/sites/")
                .then()
                .statusCode(201);
        Accounts.permission(
                List.of("tenancy.tenant"), List.of("view"), Map.of("slug", f.tenantA()), List.of(user.id()));
        user.api()
                .body(byAttributes)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(201)
                .body("tenant.id", equalTo(f.tenantAId()));
    }

    @Test
    void userTokenStandsForTheRequester() {
        Account a = Accounts.account("self");
        Account b = Accounts.account("self");
        for (Account x : List.of(a, b)) {
            Accounts.permission(List.of("users.user"), List.of("view"), Map.of("id", "$user"), List.of(x.id()));
        }
        a.api()
                .get("/api/users/users/")
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].id", equalTo(a.id()))
                .body("results[0]", not(hasKey("password")));
        a.api().get("/api/users/users/" + b.id() + "/").then().statusCode(404);
        b.api().get("/api/users/users/").then().statusCode(200).body("results.id", contains(b.id()));
    }

    @Test
    void constraintsFollowRelationsAndTags() {
        Fixture f = twoTenants();
        String u = f.mark();
        int tag = create("/api/extras/tags/", Map.of("name", "core-" + u, "slug", "core-" + u));
        auth().body(Map.of("tags", List.of(tag)))
                .patch("/api/dcim/sites/" + f.siteB() + "/")
                .then()
                .statusCode(200);
        int[] tr = Api.deviceTypeAndRole();
        int devA = Api.device(f.siteA(), tr, "da-" + u);
        int devB = Api.device(f.siteB(), tr, "db-" + u);
        Account user = Accounts.account("rel");
        Accounts.permission(
                List.of("dcim.device"), List.of("view"), Map.of("site__tenant__slug", f.tenantA()), List.of(user.id()));
        Accounts.permission(
                List.of("dcim.site"), List.of("view"), Map.of("tags__slug", "core-" + u), List.of(user.id()));
        user.api()
                .get("/api/dcim/devices/?name__ic=" + u)
                .then()
                .statusCode(200)
                .body("results.id", contains(devA));
        user.api().get("/api/dcim/sites/?name__ic=" + u).then().statusCode(200).body("results.id", contains(f.siteB()));
        auth().get("/api/dcim/devices/" + devB + "/").then().statusCode(200);
    }
}
