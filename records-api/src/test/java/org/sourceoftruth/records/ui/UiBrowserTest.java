package org.sourceoftruth.records.ui;

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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.HeadlessChromium;

/**
 * The web interface in a real browser (Debian's chromium, headless, through chromedriver):
 * sign in, create a site with its form, find it in the list by quick search and by a filter,
 * open its page from the API's display_url, edit it and find the change in its change-log tab,
 * add a device to it and find the device among the site's children, bulk-delete two sites, and
 * a user who may only view sites sees no edit button and gets 403 on the edit URL; add a journal
 * entry through the site's journal tab; its delete confirmation lists the journal entry as
 * deleted along and the device as protecting the site. Screenshots
 * of the main pages go to target/screenshots/ (docs/ui/ holds copies).
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UiBrowserTest {
    private static final String SITE = "Browser-Site-" + Api.uniq();

    private static HeadlessChromium chromium;
    private static WebDriver browser;
    private static long siteId;

    @TestHTTPResource("/")
    URL root;

    @BeforeAll
    static void start() throws Exception {
        chromium = HeadlessChromium.startOrSkip(UiBrowserTest.class);
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    @Order(1)
    void signIn() throws Exception {
        browser.manage().deleteAllCookies();
        open("/");
        assertTrue(browser.getCurrentUrl().contains("/login/"), browser.getCurrentUrl());
        String background =
                browser.findElement(By.cssSelector("button[type=submit]")).getCssValue("background-color");
        assertEquals("rgba(13, 110, 253, 1)", background, "Bootstrap's stylesheet styles the sign-in page");
        screenshot("sign-in");
        signInAs("admin", "admin");
        assertEquals("admin", browser.findElement(By.id("signed-in-user")).getText());
        assertFalse(browser.findElements(By.cssSelector("#object-counts .card")).isEmpty());
        assertTrue(browser.findElement(By.tagName("aside")).getText().contains("DCIM"));
    }

    @Test
    @Order(2)
    void createASiteThroughTheForm() throws Exception {
        open("/dcim/sites/");
        click(By.id("add-object"));
        browser.findElement(By.id("field-name")).sendKeys(SITE);
        browser.findElement(By.id("field-slug")).sendKeys(SITE.toLowerCase());
        new Select(browser.findElement(By.id("field-status"))).selectByValue("planned");
        screenshot("form");
        click(By.id("save"));
        assertEquals(SITE, browser.findElement(By.id("object-title")).getText());
        siteId = Long.parseLong(browser.getCurrentUrl().replaceAll(".*/dcim/sites/([0-9]+)/$", "$1"));
        assertEquals(
                "planned",
                Api.auth()
                        .get("/api/dcim/sites/" + siteId + "/")
                        .then()
                        .statusCode(200)
                        .extract()
                        .path("status.value"));
    }

    @Test
    @Order(3)
    void aRefusedWriteShowsTheEnginesMessageAtItsField() {
        open("/dcim/sites/add/");
        browser.findElement(By.id("field-name")).sendKeys(SITE); // taken
        browser.findElement(By.id("field-slug")).sendKeys("another-" + Api.uniq());
        click(By.id("save"));
        WebElement error = browser.findElement(By.cssSelector(".field-error[data-field=name]"));
        assertTrue(error.getText().contains("exists"), error.getText());
    }

    @Test
    @Order(4)
    void findItInTheListBySearchAndByAFilter() throws Exception {
        open("/dcim/sites/");
        browser.findElement(By.id("quick-search")).sendKeys(SITE);
        click(By.id("apply-filters"));
        assertEquals(List.of(SITE), listed());
        screenshot("list");
        open("/dcim/sites/");
        new Select(browser.findElement(By.id("filter-status"))).selectByValue("planned");
        click(By.id("apply-filters"));
        assertTrue(browser.getCurrentUrl().contains("status=planned"), browser.getCurrentUrl());
        assertTrue(listed().contains(SITE), listed().toString());
        new Select(browser.findElement(By.id("filter-status"))).selectByValue("retired");
        click(By.id("apply-filters"));
        assertFalse(listed().contains(SITE), listed().toString());
    }

    @Test
    @Order(5)
    void openItsPageFromTheApisDisplayUrl() throws Exception {
        String displayUrl = Api.auth()
                .get("/api/dcim/sites/" + siteId + "/")
                .then()
                .extract()
                .path("display_url");
        browser.get(displayUrl);
        assertEquals(SITE, browser.findElement(By.id("object-title")).getText());
        assertTrue(browser.findElement(By.id("object-fields")).getText().contains("Planned"));
        screenshot("detail");
    }

    @Test
    @Order(6)
    void editItAndSeeTheChangeInItsChangeLog() throws Exception {
        open("/dcim/sites/" + siteId + "/");
        click(By.id("edit-object"));
        WebElement description = browser.findElement(By.id("field-description"));
        description.clear();
        description.sendKeys("edited in the browser");
        click(By.id("save"));
        assertEquals(SITE, title(), this::pageText);
        assertTrue(browser.findElement(By.id("object-fields")).getText().contains("edited in the browser"));
        click(By.id("tab-changelog"));
        String log = browser.findElement(By.id("change-log")).getText();
        assertTrue(log.contains("description") && log.contains("edited in the browser"), log);
        assertTrue(log.contains("Created") && log.contains("Updated"), log);
        screenshot("changelog");
    }

    @Test
    @Order(7)
    void addADeviceAndSeeItAmongTheSitesChildren() throws Exception {
        int[] typeAndRole = Api.deviceTypeAndRole();
        String name = "browser-device-" + Api.uniq();
        open("/dcim/devices/add/");
        browser.findElement(By.id("field-name")).sendKeys(name);
        String typeModel = Api.auth()
                .get("/api/dcim/device-types/" + typeAndRole[0] + "/")
                .then()
                .extract()
                .path("model");
        String roleName = Api.auth()
                .get("/api/dcim/device-roles/" + typeAndRole[1] + "/")
                .then()
                .extract()
                .path("name");
        pick("device_type", typeModel, typeAndRole[0]);
        pick("role", roleName, typeAndRole[1]);
        pick("site", SITE, siteId);
        click(By.id("save"));
        assertEquals(name, title(), this::pageText);
        open("/dcim/sites/" + siteId + "/");
        new WebDriverWait(browser, Duration.ofSeconds(20))
                .until(b -> b.findElement(By.id("children")).getText().contains(name));
        screenshot("detail-children");
    }

    @Test
    @Order(8)
    void bulkDeleteTwoObjects() throws Exception {
        String prefix = "bulk-" + Api.uniq();
        int a = Api.create("/api/dcim/sites/", Map.of("name", prefix + "-a", "slug", prefix + "-a"));
        int b = Api.create("/api/dcim/sites/", Map.of("name", prefix + "-b", "slug", prefix + "-b"));
        open("/dcim/sites/?q=" + prefix);
        assertEquals(2, listed().size());
        for (WebElement box : browser.findElements(By.cssSelector("#object-list input[name=pk]"))) {
            box.click();
        }
        screenshot("list-selected");
        click(By.id("bulk-delete"));
        assertEquals(
                2, browser.findElements(By.cssSelector("#to-delete tbody tr")).size(), this::pageText);
        click(By.id("confirm-delete-button"));
        assertTrue(browser.getCurrentUrl().endsWith("/dcim/sites/"), browser.getCurrentUrl());
        Api.auth().get("/api/dcim/sites/" + a + "/").then().statusCode(404);
        Api.auth().get("/api/dcim/sites/" + b + "/").then().statusCode(404);
    }

    @Test
    @Order(9)
    void aUserWithoutChangePermissionSeesNoEditButtonAndGets403() throws Exception {
        Accounts.Account viewer = Accounts.account("ui-viewer");
        Accounts.permission(List.of("dcim.site"), List.of("view"), null, List.of(viewer.id()));
        browser.manage().deleteAllCookies();
        open("/dcim/sites/" + siteId + "/");
        signInAs(viewer.username(), Accounts.PASSWORD);
        assertEquals(SITE, title(), this::pageText);
        assertTrue(browser.findElements(By.id("edit-object")).isEmpty(), "no edit button");
        assertTrue(browser.findElements(By.id("delete-object")).isEmpty(), "no delete button");
        open("/dcim/sites/");
        assertTrue(browser.findElements(By.id("add-object")).isEmpty(), "no add button");
        assertTrue(browser.findElements(By.id("bulk-delete")).isEmpty(), "no bulk delete");
        open("/dcim/sites/" + siteId + "/edit/");
        assertEquals("Permission denied", browser.findElement(By.tagName("h1")).getText());
        viewer.api().get("/dcim/sites/" + siteId + "/edit/").then().statusCode(403);
        viewer.api().get("/dcim/sites/" + siteId + "/").then().statusCode(200);
    }

    /** Chooses a relation's object through its picker: types into the search box, selects it among the options htmx brings. */
    private void pick(String field, String search, long id) {
        WebElement box = browser.findElement(By.cssSelector("input.picker-search[data-field=" + field + "]"));
        box.sendKeys(search);
        By option = By.cssSelector("#field-" + field + " option[value='" + id + "']");
        new WebDriverWait(browser, Duration.ofSeconds(20))
                .until(b -> !b.findElements(option).isEmpty());
        new Select(browser.findElement(By.id("field-" + field))).selectByValue(String.valueOf(id));
    }

    /**
     * Clicks a link or submit button (after scrolling it to the middle of the window) and waits
     * for the page it leads to: the click returns before the next page has replaced this one, and
     * a read right after it would still see the old page.
     */
    private void click(By by) {
        WebElement e = browser.findElement(by);
        WebElement page = browser.findElement(By.tagName("html"));
        ((org.openqa.selenium.JavascriptExecutor) browser)
                .executeScript("arguments[0].scrollIntoView({block: 'center'})", e);
        e.click();
        new WebDriverWait(browser, Duration.ofSeconds(30)).until(driver -> isGone(page));
    }

    /**
     * Whether the element has left the document: ChromeDriver reports it as stale, or (newer
     * versions, mid-navigation) as a node that "does not belong to the document".
     */
    private static boolean isGone(WebElement element) {
        try {
            element.isEnabled();
            return false;
        } catch (org.openqa.selenium.WebDriverException gone) {
            return true;
        }
    }

    private void signInAs(String username, String password) {
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).sendKeys(password);
        click(By.id("log-in"));
    }

    @Test
    @Order(10)
    void theHomePageCountsObjectsAndListsTheLatestChanges() throws Exception {
        browser.manage().deleteAllCookies();
        open("/");
        signInAs("admin", "admin");
        assertTrue(browser.findElement(By.id("latest-changes")).getText().contains("browser-device-"), this::pageText);
        String sites = browser.findElement(By.cssSelector("#object-counts a[href='/dcim/sites/']"))
                .findElement(By.xpath(".."))
                .getText();
        assertFalse(sites.endsWith(" 0"), sites);
        screenshot("home");
        open("/search/?q=" + SITE);
        assertTrue(browser.findElement(By.tagName("main")).getText().contains(SITE), this::pageText);
    }

    @Test
    @Order(11)
    void addAJournalEntryThroughTheSitesJournalTab() throws Exception {
        open("/dcim/sites/" + siteId + "/");
        click(By.id("tab-journal"));
        new Select(browser.findElement(By.id("field-kind"))).selectByValue("warning");
        browser.findElement(By.id("field-comments")).sendKeys("Cabinet door sticks; written in the browser");
        click(By.id("add-journal-entry"));
        assertTrue(browser.getCurrentUrl().endsWith("/dcim/sites/" + siteId + "/journal/"), browser.getCurrentUrl());
        String journal = browser.findElement(By.id("journal")).getText();
        assertTrue(journal.contains("Cabinet door sticks") && journal.contains("Warning"), journal);
        screenshot("journal");
        assertTrue(
                browser.findElement(By.id("menu-operations")).getText().contains("Background tasks"),
                "the superuser's menu links the dispatcher's pages");
    }

    @Test
    @Order(12)
    void theDeleteConfirmationListsWhatTheDeleteTakesAlongAndWhatProtects() throws Exception {
        open("/dcim/sites/" + siteId + "/");
        click(By.id("delete-object"));
        assertTrue(
                browser.findElement(By.id("cascaded-objects")).getText().contains("Journal entries"), this::pageText);
        assertTrue(
                browser.findElement(By.id("protecting-objects")).getText().contains("browser-device-"), this::pageText);
        assertFalse(browser.findElement(By.id("confirm-delete-button")).isEnabled(), "no delete while protected");
        screenshot("delete-confirmation");
    }

    private String title() {
        List<WebElement> t = browser.findElements(By.id("object-title"));
        return t.isEmpty() ? null : t.get(0).getText();
    }

    private String pageText() {
        return browser.getCurrentUrl() + "\n"
                + browser.findElement(By.tagName("body")).getText();
    }

    private List<String> listed() {
        return browser.findElements(By.cssSelector("#object-list a.object-link")).stream()
                .map(WebElement::getText)
                .toList();
    }

    private void open(String path) {
        browser.get(root.toString().replaceAll("/$", "") + path);
    }

    private static void screenshot(String name) throws Exception {
        chromium.screenshot("ui-" + name);
    }
}
