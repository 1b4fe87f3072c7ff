package org.sourceoftruth.dispatcher.admin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;

/**
 * The admin pages carry records-api's web interface's look: Bootstrap's stylesheet from the
 * webjar (served here, not from a CDN) and a navbar whose links lead back to records-api's UI.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class AdminPagesStyleTest {
    @ConfigProperty(name = "dispatcher.admin.records-api-url")
    String recordsApi;

    @Test
    void theTasksPageCarriesTheUisStylesheetAndLinksBackToIt() {
        String page = given().header("Authorization", "Token " + TestInfrastructure.SERVICE_TOKEN)
                .get("/admin/background-tasks/")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertStyled(page);
        assertTrue(page.contains("id=\"tasks\""), page);
    }

    @Test
    void theRefusalPageIsStyledToo() {
        String page = given().get("/admin/background-tasks/")
                .then()
                .statusCode(403)
                .extract()
                .asString();
        assertStyled(page);
    }

    @Test
    void theStylesheetIsServedFromTheWebjar() {
        given().get(AdminAssets.BOOTSTRAP_CSS).then().statusCode(200).contentType(startsWith("text/css"));
        given().get(AdminAssets.ADMIN_CSS).then().statusCode(200);
    }

    private void assertStyled(String page) {
        assertTrue(page.contains("<link rel=\"stylesheet\" href=\"" + AdminAssets.BOOTSTRAP_CSS + "\">"), page);
        assertTrue(page.contains("class=\"navbar navbar-expand navbar-dark bg-dark"), page);
        String ui = recordsApi.endsWith("/") ? recordsApi : recordsApi + "/";
        assertTrue(page.contains("href=\"" + ui + "\" id=\"back-to-records\""), page);
    }
}
