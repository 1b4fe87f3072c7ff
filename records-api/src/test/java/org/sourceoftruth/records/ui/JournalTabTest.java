package org.sourceoftruth.records.ui;

import static org.hamcrest.Matchers.endsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * The journal tab of an object's page lists its journal entries; its form adds one through the
 * engine (a change record is written) and goes back to the tab; a refused entry answers 400 with
 * the message at its field; models without a journal in NetBox have no tab; who may not add
 * entries sees no form and is refused.
 */
@QuarkusTest
class JournalTabTest {
    @Test
    void anEntryAddedThroughTheTabIsListedAndHasItsChangeRecord() {
        int site = Api.site("journal-site");
        String detail =
                Api.auth().accept("text/html").get("/dcim/sites/" + site + "/").asString();
        assertTrue(detail.contains("id=\"tab-journal\""), "the site's page has a journal tab");
        String tab = page("/dcim/sites/" + site + "/journal/", 200);
        assertTrue(tab.contains("id=\"journal-form\""), tab);
        assertTrue(tab.contains("No journal entries."), tab);

        String comments = "Replaced the PDU " + Api.uniq();
        form("kind=warning&comments=" + comments.replace(" ", "+"))
                .post("/dcim/sites/" + site + "/journal/")
                .then()
                .statusCode(303)
                .header("Location", endsWith("/dcim/sites/" + site + "/journal/"));

        JsonPath entries = Api.auth()
                .get("/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=" + site)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertEquals(1, entries.getInt("count"));
        assertEquals(comments, entries.getString("results[0].comments"));
        assertEquals("warning", entries.getString("results[0].kind.value"));
        int entry = entries.getInt("results[0].id");
        JsonPath changes = Api.auth()
                .get("/api/core/object-changes/?changed_object_type=extras.journalentry&changed_object_id=" + entry)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertEquals(1, changes.getInt("count"), "the entry's change record");
        assertEquals("create", changes.getString("results[0].action.value"));
        assertEquals("admin", changes.getString("results[0].user_name"));

        tab = page("/dcim/sites/" + site + "/journal/", 200);
        assertTrue(tab.contains(comments), tab);
        assertTrue(tab.contains(">Warning</span>"), tab);
        assertTrue(tab.contains("<td>admin</td>"), "the author: " + tab);
    }

    @Test
    void badEntriesAnswer400AtTheirFieldAndWriteNothing() {
        int site = Api.site("journal-bad");
        String page = form("kind=bogus&comments=x")
                .post("/dcim/sites/" + site + "/journal/")
                .then()
                .statusCode(400)
                .extract()
                .asString();
        assertTrue(page.contains("data-field=\"kind\""), page);
        page = form("kind=info&comments=")
                .post("/dcim/sites/" + site + "/journal/")
                .then()
                .statusCode(400)
                .extract()
                .asString();
        assertTrue(page.contains("data-field=\"comments\""), page);
        for (String bad : List.of("comments=%00", "kind=&comments=&x=1", "")) {
            int status = form(bad).post("/dcim/sites/" + site + "/journal/").statusCode();
            assertTrue(status >= 400 && status < 500, bad + " -> " + status);
        }
        form("kind=info&comments=x")
                .post("/dcim/sites/999999999/journal/")
                .then()
                .statusCode(404);
        Api.auth()
                .get("/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=" + site)
                .then()
                .statusCode(200)
                .body("count", org.hamcrest.Matchers.equalTo(0));
    }

    @Test
    void modelsWithoutAJournalHaveNoTab() {
        String u = Api.uniq();
        int tag = Api.create("/api/extras/tags/", Map.of("name", "t-" + u, "slug", "t-" + u));
        String detail = page("/extras/tags/" + tag + "/", 200);
        assertFalse(detail.contains("id=\"tab-journal\""), detail);
        page("/extras/tags/" + tag + "/journal/", 404);
        form("kind=info&comments=x")
                .post("/extras/tags/" + tag + "/journal/")
                .then()
                .statusCode(404);
    }

    @Test
    void whoMayOnlyReadTheJournalSeesNoFormAndIsRefused() {
        int site = Api.site("journal-reader");
        Accounts.Account reader = Accounts.account("ui-journal-reader");
        Accounts.permission(List.of("dcim.site", "extras.journalentry"), List.of("view"), null, List.of(reader.id()));
        String tab = reader.api()
                .accept("text/html")
                .get("/dcim/sites/" + site + "/journal/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertFalse(tab.contains("id=\"journal-form\""), tab);
        reader.api()
                .contentType("application/x-www-form-urlencoded")
                .body("kind=info&comments=x")
                .post("/dcim/sites/" + site + "/journal/")
                .then()
                .statusCode(403);

        Accounts.Account siteOnly = Accounts.account("ui-site-only");
        Accounts.permission(List.of("dcim.site"), List.of("view"), null, List.of(siteOnly.id()));
        String detail = siteOnly.api()
                .accept("text/html")
                .get("/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertFalse(detail.contains("id=\"tab-journal\""), "no tab without view on journal entries");
    }

    private static String page(String path, int status) {
        return Api.auth()
                .accept("text/html")
                .get(path)
                .then()
                .statusCode(status)
                .extract()
                .asString();
    }

    private static RequestSpecification form(String body) {
        return Api.auth().contentType("application/x-www-form-urlencoded").body(body);
    }
}
