package org.sourceoftruth.dispatcher.admin;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.dispatcher.support.Fixtures;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.support.TestInfrastructure;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * A real browser (Debian's chromium, headless, through chromedriver) against the packaged
 * records-api and this dispatcher: log in at records-api, click through the browsable API to
 * the sites, create one with the create form; its webhook fails against a receiver answering
 * 500; the failed delivery is found on the dispatcher's background-tasks page (same session
 * cookie), shown with its secrets masked, and retried with the button once the receiver
 * answers 204. Screenshots of every step go to target/screenshots/.
 */
@QuarkusTest
@WithTestResource(TestInfrastructure.class)
class AdminPagesBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final String USER = "browser-admin";
    private static final String PASSWORD = "browser-password-1";
    private static final String TOKEN = "0123456789abcdef0123456789abcdef01234567";
    private static final String SECRET = "browser-webhook-secret";
    private static final String HEADER_CREDENTIAL = "header-credential-value";

    private static RecordsApiProcess recordsApi;
    private static Receiver receiver;
    private static WebDriver browser;
    private static Path profile;

    @Inject
    RuleCache rules;

    @TestHTTPResource("/admin/background-tasks/")
    URL tasksPage;

    @BeforeAll
    static void start() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String message = "\n*** AdminPagesBrowserTest SKIPPED: " + CHROMIUM + " or " + CHROMEDRIVER + " is missing."
                    + "\n*** Install them: apt-get install -y chromium chromium-driver (deploy/local/stack test does).\n";
            System.err.println(message);
            Assumptions.abort(message);
        }
        recordsApi =
                TestInfrastructure.recordsApi().superuser(USER, PASSWORD, TOKEN).start();
        receiver = Receiver.start().answering(500);
        Files.createDirectories(SCREENSHOTS);
        profile = Files.createTempDirectory("chromium-profile");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1400,1000",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (recordsApi != null) {
            recordsApi.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .map(Path::toFile)
                        .forEach(File::delete);
            }
        }
    }

    @Test
    void loginCreateSiteThenRetryItsFailedWebhookFromTheBackgroundTasksPage() throws Exception {
        String api = recordsApi.url();
        long ruleId = webhookAndRuleForSites();

        // 1. log in at records-api
        browser.get(api + "/login/");
        screenshot("01-login");
        browser.findElement(By.name("username")).sendKeys(USER);
        browser.findElement(By.name("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("form button[type=submit]")).click();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> browser.getCurrentUrl().equals(api + "/api/"));
        assertTrue(browser.findElement(By.tagName("header")).getText().contains(USER), "logged in as " + USER);
        screenshot("02-api-root");

        // 2. click through to the sites
        linkInResponse(api + "/api/dcim/").click();
        screenshot("03-dcim");
        linkInResponse(api + "/api/dcim/sites/").click();
        assertEquals(api + "/api/dcim/sites/", browser.getCurrentUrl());
        screenshot("04-sites-empty");

        // 3. create a site with the create form (redirects to the new site)
        WebElement content = browser.findElement(By.id("create-content"));
        content.clear();
        content.sendKeys("{\"name\": \"Browser site\", \"slug\": \"browser-site\"}");
        browser.findElement(By.id("create-submit")).click();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> browser.getCurrentUrl()
                        .matches(java.util.regex.Pattern.quote(api + "/api/dcim/sites/") + "\\d+/"));
        screenshot("05-site-created");
        browser.get(api + "/api/dcim/sites/");
        assertTrue(
                browser.findElement(By.id("response")).getText().contains("\"Browser site\""),
                "the new site is in the list");
        screenshot("06-sites-list");

        // 4. its webhook fails (receiver answers 500, RETRY_MAX attempts)
        long taskId = await("a failed delivery for rule " + ruleId)
                .atMost(Duration.ofSeconds(120))
                .until(
                        () -> Fixtures.deliveriesOfRule(ruleId).stream()
                                .filter(d -> "failed".equals(d.get("state")))
                                .map(d -> (Long) d.get("id"))
                                .findFirst()
                                .orElse(null),
                        id -> id != null);

        // 5. find it on the dispatcher's page (the session cookie of 127.0.0.1 comes along)
        browser.get(tasksPage + "?status=failed");
        screenshot("07-background-tasks-failed");
        WebElement row = browser.findElement(By.id("task-" + taskId));
        assertTrue(row.getText().contains("failed"), row.getText());
        assertTrue(row.getText().contains("dcim.site"), row.getText());
        row.findElement(By.className("task-link")).click();
        assertEquals("failed", browser.findElement(By.id("task-status")).getText());
        String detail = browser.getPageSource();
        assertFalse(detail.contains(HEADER_CREDENTIAL), "the Authorization header's value is masked");
        assertTrue(
                browser.findElement(By.id("request-headers"))
                        .getText()
                        .contains("X-Hook-Signature " + BackgroundTaskPages.MASK),
                "the signature is masked");
        assertTrue(
                browser.findElement(By.id("request-headers")).getText().contains("X-Trace visible-value"),
                "other headers are shown");
        assertTrue(browser.findElement(By.id("request-line")).getText().startsWith("POST " + receiver.url("/hook")));
        List<WebElement> attempts = browser.findElements(By.cssSelector("#attempts tbody tr"));
        assertEquals(TestInfrastructure.RETRY_MAX, attempts.size(), "every attempt is listed");
        attempts.forEach(
                a -> assertTrue(a.findElement(By.className("code")).getText().equals("500"), a.getText()));
        screenshot("08-task-failed");

        // 6. retry once the receiver is back; reload until it has succeeded
        receiver.answering(204);
        browser.findElement(By.id("retry-submit")).click();
        assertTrue(
                browser.getCurrentUrl().endsWith("/admin/background-tasks/" + taskId + "/"), browser.getCurrentUrl());
        screenshot("09-task-requeued");
        await("task " + taskId + " succeeded on the page")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    browser.navigate().refresh();
                    return browser.findElement(By.id("task-status")).getText().equals("succeeded");
                });
        assertTrue(browser.findElement(By.id("attempts")).getText().contains("204"), "the retry's answer is listed");
        assertFalse(
                browser.findElements(By.id("retry-submit")).stream().findAny().isPresent(),
                "no retry button on a succeeded task");
        screenshot("10-task-succeeded");
        browser.get(tasksPage + "?status=succeeded");
        assertTrue(browser.findElement(By.id("task-" + taskId)).getText().contains("succeeded"));
        screenshot("11-background-tasks-succeeded");
    }

    @Test
    void othersAreRefusedAndTheRetryFormNeedsTheCsrfToken() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> anonymous =
                http.send(HttpRequest.newBuilder(tasksPage.toURI()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, anonymous.statusCode());
        assertTrue(anonymous.body().contains("id=\"login-link\""), anonymous.body());

        HttpResponse<String> token = http.send(
                HttpRequest.newBuilder(tasksPage.toURI())
                        .header("Authorization", "Token " + TOKEN)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, token.statusCode(), token.body());

        long plainUser = Fixtures.user("browser-plain", false, true);
        HttpResponse<String> notSuperuser = http.send(
                HttpRequest.newBuilder(tasksPage.toURI())
                        .header("Authorization", "Token " + Fixtures.token(plainUser, true, null))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, notSuperuser.statusCode());
        assertFalse(notSuperuser.body().contains("login-link"), "a logged-in non-superuser is not sent to log in");

        // a session without the CSRF field (what a cross-site form would send) cannot requeue
        String session = loginSessionCookie(http);
        HttpResponse<String> forged = http.send(
                HttpRequest.newBuilder(URI.create(tasksPage + "1/requeue/"))
                        .header("Cookie", "sessionid=" + session)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("csrfmiddlewaretoken="))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, forged.statusCode());
        assertTrue(forged.body().contains("CSRF verification failed"), forged.body());
    }

    /** Logs in through records-api's JSON login and returns the session cookie's value. */
    private static String loginSessionCookie(HttpClient http) throws Exception {
        HttpResponse<String> login = http.send(
                HttpRequest.newBuilder(URI.create(recordsApi.url() + "/login/"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"username\":\"" + USER + "\",\"password\":\"" + PASSWORD + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, login.statusCode(), login.body());
        return login.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("sessionid="))
                .map(c -> c.substring("sessionid=".length(), c.indexOf(';')))
                .findFirst()
                .orElseThrow();
    }

    /** A signed webhook with a credential header, and an enabled rule for sites, made through the API. */
    private long webhookAndRuleForSites() {
        int webhook = given().baseUri(recordsApi.url())
                .header("Authorization", "Token " + TOKEN)
                .contentType("application/json")
                .body(Map.of(
                        "name",
                        "browser-hook",
                        "payload_url",
                        receiver.url("/hook"),
                        "secret",
                        SECRET,
                        "additional_headers",
                        "Authorization: Bearer " + HEADER_CREDENTIAL + "\nX-Trace: visible-value"))
                .post("/api/extras/webhooks/")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        int rule = given().baseUri(recordsApi.url())
                .header("Authorization", "Token " + TOKEN)
                .contentType("application/json")
                .body(Map.of(
                        "name",
                        "browser-rule",
                        "object_types",
                        List.of("dcim.site"),
                        "event_types",
                        List.of("object_created"),
                        "action_object_type",
                        "extras.webhook",
                        "action_object_id",
                        webhook))
                .post("/api/extras/event-rules/")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> !rules.rulesFor("dcim.site", "object_created").isEmpty());
        return rule;
    }

    private static WebElement linkInResponse(String href) {
        return browser.findElements(By.cssSelector("#response a")).stream()
                .filter(a -> href.equals(a.getAttribute("href")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no link to " + href + " in " + browser.getPageSource()));
    }

    private static void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }
}
