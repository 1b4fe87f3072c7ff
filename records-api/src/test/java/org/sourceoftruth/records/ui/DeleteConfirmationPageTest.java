package org.sourceoftruth.records.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * The delete confirmation lists what the engine's delete would take along (the objects it
 * cascades to) and what refuses it (protecting objects), read without changing anything; the
 * delete itself is the API's, 409 while something protects the object.
 */
@QuarkusTest
class DeleteConfirmationPageTest {
    @Test
    void aSitesConfirmationListsItsLocationsRacksAndJournalAndTheDevicesProtectingIt() {
        String u = Api.uniq();
        int site = Api.site("del-site");
        int location = Api.create("/api/dcim/locations/", Map.of("name", "loc-" + u, "slug", "loc-" + u, "site", site));
        int rack = Api.create("/api/dcim/racks/", Map.of("name", "rack-" + u, "site", site, "location", location));
        Api.create(
                "/api/extras/journal-entries/",
                Map.of("assigned_object_type", "dcim.site", "assigned_object_id", site, "comments", "note " + u));
        int device = Api.device(site, Api.deviceTypeAndRole(), "dev-" + u);

        String page = confirmation(site);
        String cascaded = section(page, "cascaded-objects");
        assertEquals("1", count(cascaded, "dcim.location"), cascaded);
        assertEquals("1", count(cascaded, "dcim.rack"), cascaded);
        assertEquals("1", count(cascaded, "extras.journalentry"), cascaded);
        assertTrue(cascaded.contains("href=\"/dcim/racks/" + rack + "/\">rack-" + u + "</a>"), cascaded);
        assertTrue(cascaded.contains("href=\"/dcim/locations/" + location + "/\">loc-" + u + "</a>"), cascaded);
        String protecting = section(page, "protecting-objects");
        assertEquals("1", count(protecting, "dcim.device"), protecting);
        assertTrue(protecting.contains("href=\"/dcim/devices/" + device + "/\">dev-" + u + "</a>"), protecting);
        assertTrue(page.contains("id=\"delete-protected\""), page);
        assertTrue(page.contains("id=\"confirm-delete-button\" disabled"), "no delete while protected");

        // reading the confirmation changed nothing; the delete is still the API's, refused
        Api.auth().get("/api/dcim/racks/" + rack + "/").then().statusCode(200);
        Api.auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(409);
        Api.auth()
                .contentType("application/x-www-form-urlencoded")
                .body("confirm=1")
                .post("/dcim/sites/" + site + "/delete/")
                .then()
                .statusCode(409);

        // without the device nothing protects the site: the delete takes the rack and location along
        Api.auth().delete("/api/dcim/devices/" + device + "/").then().statusCode(204);
        page = confirmation(site);
        assertFalse(page.contains("id=\"delete-protected\""), page);
        assertTrue(section(page, "cascaded-objects").contains("rack-" + u), page);
        Api.auth()
                .contentType("application/x-www-form-urlencoded")
                .body("confirm=1")
                .post("/dcim/sites/" + site + "/delete/")
                .then()
                .statusCode(303);
        Api.auth().get("/api/dcim/racks/" + rack + "/").then().statusCode(404);
        Api.auth().get("/api/dcim/locations/" + location + "/").then().statusCode(404);
    }

    @Test
    void theBulkConfirmationListsTheCascadeOfEverySelectedObject() {
        String u = Api.uniq();
        int a = Api.site("bulk-a");
        int b = Api.site("bulk-b");
        Api.create("/api/dcim/locations/", Map.of("name", "la-" + u, "slug", "la-" + u, "site", a));
        Api.create("/api/dcim/locations/", Map.of("name", "lb-" + u, "slug", "lb-" + u, "site", b));
        String page = Api.auth()
                .contentType("application/x-www-form-urlencoded")
                .body("pk=" + a + "&pk=" + b)
                .post("/dcim/sites/delete/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String cascaded = section(page, "cascaded-objects");
        assertEquals("2", count(cascaded, "dcim.location"), cascaded);
        assertTrue(cascaded.contains("la-" + u) && cascaded.contains("lb-" + u), cascaded);
    }

    @Test
    void objectsOfModelsTheCallerMayNotViewAreCountedNotNamed() {
        String u = Api.uniq();
        int site = Api.site("del-hidden");
        Api.create("/api/dcim/locations/", Map.of("name", "hidden-" + u, "slug", "hidden-" + u, "site", site));
        Accounts.Account deleter = Accounts.account("ui-deleter");
        Accounts.permission(List.of("dcim.site"), List.of("view", "delete"), null, List.of(deleter.id()));
        String page = deleter.api()
                .accept("text/html")
                .get("/dcim/sites/" + site + "/delete/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String cascaded = section(page, "cascaded-objects");
        assertEquals("1", count(cascaded, "dcim.location"), cascaded);
        assertFalse(cascaded.contains("hidden-" + u), cascaded);
    }

    private static String confirmation(int site) {
        return Api.auth()
                .accept("text/html")
                .get("/dcim/sites/" + site + "/delete/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    /** The table with this id. */
    static String section(String page, String id) {
        int from = page.indexOf("id=\"" + id + "\"");
        assertTrue(from >= 0, "no #" + id + " in the page:\n" + page);
        return page.substring(from, page.indexOf("</table>", from));
    }

    /** The count shown for a model in a dependents table, or null. */
    static String count(String table, String contentType) {
        Matcher m = Pattern.compile("data-model=\"" + Pattern.quote(contentType)
                        + "\">\\s*<td>[^<]*</td>\\s*<td class=\"text-end dependent-count\">(\\d+)</td>")
                .matcher(table);
        return m.find() ? m.group(1) : null;
    }
}
