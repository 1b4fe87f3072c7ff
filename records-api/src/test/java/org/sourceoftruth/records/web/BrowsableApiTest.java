package org.sourceoftruth.records.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Browsers get HTML pages with links and forms; API clients keep getting JSON. */
@QuarkusTest
class BrowsableApiTest {
    private static final String BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    @Test
    void browsersGetHtmlAndClientsGetJson() {
        int site = Api.site("html");
        Api.auth()
                .accept(BROWSER_ACCEPT)
                .get("/api/dcim/sites/" + site + "/")
                .then()
                .statusCode(200)
                .contentType(startsWith("text/html"))
                .body(containsString("<h1>Site Instance</h1>"))
                .body(containsString("<a href=\"http://"))
                .body(not(containsString("RawHtml")));
        Api.auth()
                .accept(BROWSER_ACCEPT)
                .get("/api/dcim/sites/?format=json")
                .then()
                .statusCode(200)
                .contentType(startsWith("application/json"));
        Api.auth().get("/api/dcim/sites/").then().contentType(startsWith("application/json"));
    }

    @Test
    void loggedInUserCreatesThroughTheFormWithCsrf() {
        Response loginPage = given().get("/login/");
        String csrf = loginPage.cookie("csrftoken");
        Response login = given().redirects()
                .follow(false)
                .cookie("csrftoken", csrf)
                .formParam("username", "admin")
                .formParam("password", "admin")
                .formParam("csrfmiddlewaretoken", csrf)
                .formParam("next", "/api/")
                .post("/login/");
        login.then().statusCode(303);
        Map<String, String> cookies = new java.util.HashMap<>(login.getCookies());
        String sessionCsrf = cookies.get("csrftoken");
        String name = "form-" + Api.uniq();
        given().redirects()
                .follow(false)
                .cookies(cookies)
                .accept(BROWSER_ACCEPT)
                .get("/api/dcim/sites/")
                .then()
                .statusCode(200)
                .body(containsString("id=\"create-form\""));
        // without the CSRF field the form post is refused
        given().redirects()
                .follow(false)
                .cookies(cookies)
                .formParam("_method", "POST")
                .formParam("_content", "{\"name\":\"" + name + "\",\"slug\":\"" + name + "\"}")
                .post("/api/dcim/sites/")
                .then()
                .statusCode(403);
        String location = given().redirects()
                .follow(false)
                .cookies(cookies)
                .formParam("_method", "POST")
                .formParam("_content", "{\"name\":\"" + name + "\",\"slug\":\"" + name + "\"}")
                .formParam("csrfmiddlewaretoken", sessionCsrf)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(303)
                .extract()
                .header("Location");
        org.junit.jupiter.api.Assertions.assertTrue(location.matches(".*/api/dcim/sites/\\d+/$"), location);
        Api.auth().get("/api/dcim/sites/?name=" + name).then().body("count", equalTo(1));
    }
}
