package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * Event rules with action type notification, end to end through real changes; bookmarks,
 * notifications and subscriptions scoped to their users.
 */
@QuarkusTest
class NotificationsTest {

    /** The notifications of {@code site} that {@code account} sees in its own list. */
    private static io.restassured.response.ValidatableResponse notificationsOf(Accounts.Account account, int site) {
        return account.api()
                .queryParam("object_type", "dcim.site")
                .queryParam("object_id", site)
                .get("/api/extras/notifications/")
                .then()
                .statusCode(200);
    }

    @Test
    void aNotificationRuleNotifiesEveryMemberOfItsGroup() {
        Accounts.Account alice = Accounts.account("alice");
        Accounts.Account bob = Accounts.account("bob");
        Accounts.Account carol = Accounts.account("carol");
        int team = Api.create("/api/users/groups/", Map.of("name", "team-" + uniq()));
        Api.auth()
                .body(Map.of("groups", List.of(team)))
                .patch("/api/users/users/" + bob.id() + "/")
                .then()
                .statusCode(200);
        int group = Api.create(
                "/api/extras/notification-groups/",
                Map.of("name", "ng-" + uniq(), "users", List.of(alice.id()), "groups", List.of(team)));
        String tag = "n" + uniq();
        Api.create(
                "/api/extras/event-rules/",
                Map.of(
                        "name",
                        "notify-" + uniq(),
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created", "object_updated", "object_deleted"),
                        "action_type",
                        "notification",
                        "action_object_type",
                        "extras.notificationgroup",
                        "action_object_id",
                        group,
                        "conditions",
                        Map.of("and", List.of(Map.of("attr", "description", "value", tag)))));

        // a matching change: alice (a member) and bob (through his group) are notified, carol is not
        String name = "ns-" + uniq();
        int site = Api.create("/api/dcim/sites/", Map.of("name", name, "slug", name, "description", tag));
        notificationsOf(alice, site)
                .body("count", equalTo(1))
                .body("results[0].event_type", equalTo("object_created"))
                .body("results[0].user.id", equalTo(alice.id()))
                .body("results[0].read", equalTo(null))
                .body("results[0].object.id", equalTo(site))
                .body("results[0].display", equalTo(name));
        notificationsOf(bob, site).body("count", equalTo(1)).body("results[0].user.id", equalTo(bob.id()));
        notificationsOf(carol, site).body("count", equalTo(0));
        // each user sees only their own; the superuser sees both
        alice.api()
                .get("/api/extras/notifications/")
                .then()
                .statusCode(200)
                .body("results.user.id", everyItem(equalTo(alice.id())));
        Api.auth()
                .queryParam("object_type", "dcim.site")
                .queryParam("object_id", site)
                .get("/api/extras/notifications/")
                .then()
                .body("count", equalTo(2));

        // alice marks hers read; a later change updates it in place (one per object and user), read stays
        int aliceNote = notificationsOf(alice, site).extract().path("results[0].id");
        alice.api()
                .body(Map.of("read", "2030-01-01T00:00:00Z"))
                .patch("/api/extras/notifications/" + aliceNote + "/")
                .then()
                .statusCode(200)
                .body("read", startsWith("2030-01-01T00:00:00"));
        bob.api()
                .body(Map.of("read", "2030-01-01T00:00:00Z"))
                .patch("/api/extras/notifications/" + aliceNote + "/")
                .then()
                .statusCode(404);
        Api.auth()
                .body(Map.of("comments", "changed"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        notificationsOf(alice, site)
                .body("count", equalTo(1))
                .body("results[0].id", equalTo(aliceNote))
                .body("results[0].event_type", equalTo("object_updated"))
                .body("results[0].read", notNullValue());

        // a change the conditions do not match, or of another object type, notifies nobody
        String other = "ns-" + uniq();
        int quiet = Api.create("/api/dcim/sites/", Map.of("name", other, "slug", other, "description", "other"));
        notificationsOf(alice, quiet).body("count", equalTo(0));

        // the deletion: the notification keeps the object's text
        Api.auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        notificationsOf(alice, site)
                .body("count", equalTo(1))
                .body("results[0].event_type", equalTo("object_deleted"))
                .body("results[0].display", equalTo(name));
    }

    @Test
    void everyNetBoxActionTypeIsAccepted() {
        int webhook = Api.create(
                "/api/extras/webhooks/", Map.of("name", "wh-" + uniq(), "payload_url", "http://127.0.0.1:9/x"));
        Api.post(
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "n-" + uniq(),
                                "object_types",
                                List.of("dcim.site"),
                                "event_types",
                                List.of("object_created"),
                                "action_type",
                                "notification",
                                "action_object_type",
                                "extras.webhook",
                                "action_object_id",
                                webhook))
                .statusCode(400)
                .body(
                        "action_object_type[0]",
                        equalTo("A notification action needs an object of type extras.notificationgroup."));
        // script is one of NetBox's action types, but no script runner exists here: refused (ScriptsTest)
        Api.post(
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "s-" + uniq(),
                                "object_types",
                                List.of("dcim.site"),
                                "event_types",
                                List.of("object_created"),
                                "action_type",
                                "bogus",
                                "action_object_type",
                                "extras.webhook",
                                "action_object_id",
                                1))
                .statusCode(400)
                .body("action_type[0]", equalTo("\"bogus\" is not a valid choice."));
    }

    /** NetBox's notify_object_changed: a subscriber is notified of updates and deletions, afresh each time. */
    @Test
    void subscribersAreNotifiedWhenTheirObjectChanges() {
        Accounts.Account alice = Accounts.account("sub");
        Accounts.Account bob = Accounts.account("sub");
        String name = "sn-" + uniq();
        int site = Api.create("/api/dcim/sites/", Map.of("name", name, "slug", name));
        int quiet = Api.site("sq");
        alice.api()
                .body(Map.of("object_type", "dcim.site", "object_id", site, "user", alice.id()))
                .post("/api/extras/subscriptions/")
                .then()
                .statusCode(201);
        notificationsOf(alice, site).body("count", equalTo(0)); // subscribing is no change of the site

        Api.auth()
                .body(Map.of("description", "first"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        notificationsOf(alice, site)
                .body("count", equalTo(1))
                .body("results[0].event_type", equalTo("object_updated"))
                .body("results[0].user.id", equalTo(alice.id()))
                .body("results[0].object.id", equalTo(site))
                .body("results[0].read", equalTo(null));
        notificationsOf(bob, site).body("count", equalTo(0));
        Api.auth()
                .body(Map.of("description", "other"))
                .patch("/api/dcim/sites/" + quiet + "/")
                .then()
                .statusCode(200);
        notificationsOf(alice, quiet).body("count", equalTo(0));

        // read, then changed again: one notification per object and user, unread again
        int note = notificationsOf(alice, site).extract().path("results[0].id");
        alice.api()
                .body(Map.of("read", "2030-01-01T00:00:00Z"))
                .patch("/api/extras/notifications/" + note + "/")
                .then()
                .statusCode(200);
        Api.auth()
                .body(Map.of("description", "second"))
                .patch("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200);
        notificationsOf(alice, site).body("count", equalTo(1)).body("results[0].read", equalTo(null));

        // a bulk update notifies too (one statement for the batch)
        Api.auth()
                .body(List.of(Map.of("id", site, "description", "bulk"), Map.of("id", quiet, "description", "bulk")))
                .patch("/api/dcim/sites/")
                .then()
                .statusCode(200);
        notificationsOf(alice, site).body("count", equalTo(1)).body("results[0].event_type", equalTo("object_updated"));

        // the deletion notifies; the notification keeps the object's text
        Api.auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        notificationsOf(alice, site)
                .body("count", equalTo(1))
                .body("results[0].event_type", equalTo("object_deleted"))
                .body("results[0].display", equalTo(name));
    }

    @Test
    void bookmarksAndSubscriptionsBelongToTheirUsers() {
        Accounts.Account alice = Accounts.account("bm");
        Accounts.Account bob = Accounts.account("bm");
        int site = Api.site("bm");
        alice.api()
                .body(Map.of("object_type", "dcim.site", "object_id", site, "user", alice.id()))
                .post("/api/extras/bookmarks/")
                .then()
                .statusCode(201)
                .body("object.id", equalTo(site))
                .body("user.id", equalTo(alice.id()));
        // not for someone else
        alice.api()
                .body(Map.of("object_type", "dcim.site", "object_id", site, "user", bob.id()))
                .post("/api/extras/bookmarks/")
                .then()
                .statusCode(403);
        // one per object and user
        alice.api()
                .body(Map.of("object_type", "dcim.site", "object_id", site, "user", alice.id()))
                .post("/api/extras/bookmarks/")
                .then()
                .statusCode(400);
        bob.api().get("/api/extras/bookmarks/").then().statusCode(200).body("count", equalTo(0));
        int sub = alice.api()
                .body(Map.of("object_type", "dcim.site", "object_id", site, "user", alice.id()))
                .post("/api/extras/subscriptions/")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Api.auth()
                .get("/api/extras/subscriptions/?user_id=" + alice.id())
                .then()
                .body("results.id", hasItem(sub));
        // an object type without NetBox's feature set, or a missing object, is refused
        alice.api()
                .body(Map.of("object_type", "users.user", "object_id", alice.id(), "user", alice.id()))
                .post("/api/extras/bookmarks/")
                .then()
                .statusCode(400)
                .body("object_type[0]", equalTo("Invalid content type: users.user"));
        // deleting the object deletes its bookmarks and subscriptions
        Api.auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        alice.api().get("/api/extras/subscriptions/" + sub + "/").then().statusCode(404);
        alice.api().get("/api/extras/bookmarks/").then().body("count", equalTo(0));
    }
}
