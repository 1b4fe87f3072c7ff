package org.sourceoftruth.records.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * The menu links superusers (whom alone the dispatcher's pages admit) to the dispatcher's
 * background-task pages, at DISPATCHER_URL (the tests' closed port) when DISPATCHER_PAGES_URL is
 * unset; others do not see the link.
 */
@QuarkusTest
class OperationsMenuTest {
    private static final String LINK = "href=\"http://127.0.0.1:1/admin/background-tasks/\"";

    @Test
    void superusersSeeTheBackgroundTasksLink() {
        String home = Api.auth()
                .accept("text/html")
                .get("/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertTrue(home.contains("id=\"menu-operations\""), home);
        assertTrue(home.contains(LINK), home);
        String list = Api.auth().accept("text/html").get("/dcim/sites/").asString();
        assertTrue(list.contains(LINK), "on every page's menu");
    }

    @Test
    void otherUsersDoNot() {
        Accounts.Account viewer = Accounts.account("ui-menu-viewer");
        Accounts.permission(List.of("dcim.site"), List.of("view"), null, List.of(viewer.id()));
        String home = viewer.api()
                .accept("text/html")
                .get("/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertFalse(home.contains("menu-operations"), home);
        assertFalse(home.contains("/admin/background-tasks/"), home);
    }
}
