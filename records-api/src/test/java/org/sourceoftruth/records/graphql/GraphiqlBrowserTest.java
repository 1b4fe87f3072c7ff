package org.sourceoftruth.records.graphql;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.HeadlessChromium;

/**
 * GraphiQL at {@code /graphql/} in a real browser: signed in with the sign-in form, the page
 * loads GraphiQL from the webjars (and nothing from another host), runs a query with the
 * browser's session and CSRF token and shows a site the test created. Its screenshot is
 * target/screenshots/graphiql.png (docs/ui/ holds a copy).
 */
@QuarkusTest
class GraphiqlBrowserTest {
    private static HeadlessChromium chromium;
    private static WebDriver browser;

    @TestHTTPResource("/")
    URL root;

    @BeforeAll
    static void start() throws Exception {
        chromium = HeadlessChromium.startOrSkip(GraphiqlBrowserTest.class);
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    void theAssetsNeedNoSignIn() {
        // LOGIN_REQUIRED is on in tests: an anonymous 200 shows static files bypass the API's auth
        for (String asset : List.of(
                GraphiqlAssets.REACT_JS,
                GraphiqlAssets.REACT_DOM_JS,
                GraphiqlAssets.GRAPHIQL_JS,
                GraphiqlAssets.MOUNT_JS)) {
            given().get(asset).then().statusCode(200).contentType(containsString("javascript"));
        }
        given().get(GraphiqlAssets.GRAPHIQL_CSS).then().statusCode(200).contentType(containsString("css"));
    }

    @Test
    void aSignedInBrowserRunsAQueryInGraphiql() throws Exception {
        String site = "GraphiQL-Site-" + Api.uniq();
        Api.create("/api/dcim/sites/", Map.of("name", site, "slug", site.toLowerCase()));

        browser.manage().deleteAllCookies();
        open("/");
        assertTrue(browser.getCurrentUrl().contains("/login/"), browser.getCurrentUrl());
        browser.findElement(By.id("username")).sendKeys("admin");
        browser.findElement(By.id("password")).sendKeys("admin");
        browser.findElement(By.id("log-in")).click();
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(b -> !b.getCurrentUrl().contains("/login/"));

        open("/graphql/");
        By editor = By.cssSelector(".graphiql-container .graphiql-query-editor .CodeMirror");
        new WebDriverWait(browser, Duration.ofSeconds(60))
                .until(b -> !b.findElements(editor).isEmpty());

        for (WebElement script : browser.findElements(By.tagName("script"))) {
            String src = script.getDomAttribute("src");
            assertTrue(src == null || src.startsWith("/webjars/") || src.startsWith("/static/"), src);
        }
        for (WebElement link : browser.findElements(By.tagName("link"))) {
            String href = link.getDomAttribute("href");
            assertTrue(href.startsWith("/webjars/") || href.startsWith("/static/"), href);
        }

        String query = "{\n  site_list(filters: {name: {exact: \"" + site + "\"}}) {\n    name\n    status\n  }\n}\n";
        js().executeScript("arguments[0].CodeMirror.setValue(arguments[1])", browser.findElement(editor), query);
        browser.findElement(By.cssSelector(".graphiql-execute-button")).click();
        By response = By.cssSelector(".graphiql-response");
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(b -> b.findElement(response).getText().contains(site));
        String shown = browser.findElement(response).getText();
        assertTrue(shown.contains("\"site_list\""), shown);
        assertFalse(shown.contains("errors"), shown);

        // every request the page made (scripts, stylesheet, fonts, introspection, the query) went here
        String origin = root.getProtocol() + "://" + root.getAuthority() + "/";
        @SuppressWarnings("unchecked")
        List<String> requested =
                (List<String>) js().executeScript("return performance.getEntriesByType('resource').map(e => e.name)");
        assertFalse(requested.isEmpty());
        List<String> elsewhere =
                requested.stream().filter(u -> !u.startsWith(origin)).toList();
        assertEquals(List.of(), elsewhere, "requests to another host");
        assertTrue(requested.contains(origin + "graphql/"), requested.toString());
        chromium.screenshot("graphiql");
    }

    private JavascriptExecutor js() {
        return (JavascriptExecutor) browser;
    }

    private void open(String path) {
        browser.get(root.toString().replaceAll("/$", "") + path);
    }
}
