package org.sourceoftruth.records.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.contract.Contract.Endpoint;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * Every model's pages of the web interface answer: with one object of every endpoint the
 * contract's {@link ObjectFactory} can make, each model's list, add form, object page (and its
 * child tables, change log and, for journaled models, journal), edit form and delete confirmation
 * (with what the delete takes along) render without a 4xx or 5xx and without template
 * text left unrendered. It runs in the contract test's application (its own database).
 */
@QuarkusTest
@TestProfile(ContractTest.OwnDatabase.class)
class UiPagesTest {
    /** Qute's own syntax, or an expression it printed as it stood. */
    private static final Pattern UNRENDERED = Pattern.compile("\\{[#/!@]|\\{[a-zA-Z_]+(\\.[a-zA-Z_]+)+\\}|NOT_FOUND");

    private static final Pattern HX_GET = Pattern.compile("hx-get=\"([^\"]+)\"");

    @Inject
    ModelRegistry registry;

    @Test
    void everyModelsPagesRender() {
        Contract contract = Contract.load();
        Set<String> served = new LinkedHashSet<>();
        for (Endpoint ep : contract.endpoints()) {
            if (Http.get(ep.path(), Map.of("limit", List.of("1"))).status() != 404) {
                served.add(ep.key());
            }
        }
        ObjectFactory factory = new ObjectFactory(contract, served);
        served.forEach(factory::primary);

        List<String> failures = new ArrayList<>();
        int models = 0;
        int withObject = 0;
        int journaled = 0;
        for (Model m : primaryModels()) {
            models++;
            String list = "/" + m.app() + "/" + m.path() + "/";
            check(list, failures);
            if (!m.isReadOnlyApi()) {
                check(list + "add/", failures);
            }
            Long id = firstId(m);
            if (id == null || !m.hasDisplayUrl()) {
                continue;
            }
            withObject++;
            String detail = list + id + "/";
            String page = check(detail, failures);
            Matcher children = HX_GET.matcher(page);
            while (children.find()) {
                check(children.group(1).replace("&amp;", "&"), failures);
            }
            check(detail + "changelog/", failures);
            if (page.contains("id=\"tab-journal\"")) {
                journaled++;
                check(detail + "journal/", failures);
            }
            if (!m.isReadOnlyApi()) {
                check(detail + "edit/", failures);
                check(detail + "delete/", failures);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " pages failed:\n" + String.join("\n", failures));
        assertTrue(journaled >= 40, "only " + journaled + " object pages had a journal tab");
        assertTrue(
                withObject >= 0.8 * models,
                "only " + withObject + " of " + models + " models had an object whose pages were opened");
    }

    @Test
    void theRoutePatternNamesEveryApplication() {
        Set<String> apps = new TreeSet<>(registry.apps());
        Set<String> routed = new TreeSet<>(List.of(org.sourceoftruth.records.ui.UiTestAccess.APPS.split("\\|")));
        assertEquals(apps, routed);
    }

    @Test
    void theAssetsAreServedFromTheWebjars() {
        for (String asset : org.sourceoftruth.records.ui.UiTestAccess.ASSETS) {
            Api.auth().get(asset).then().statusCode(200);
        }
        // the sign-in page (package auth) names the stylesheet itself
        assertTrue(io.restassured.RestAssured.given()
                .get("/login/")
                .asString()
                .contains(org.sourceoftruth.records.ui.UiTestAccess.ASSETS.get(0)));
    }

    private List<Model> primaryModels() {
        List<Model> out = new ArrayList<>();
        for (String app : registry.apps()) {
            registry.modelsOf(app).forEach((path, m) -> {
                if (m.app().equals(app) && m.path().equals(path)) {
                    out.add(m);
                }
            });
        }
        return out;
    }

    private static Long firstId(Model m) {
        Http.Reply r = Http.get("/api/" + m.app() + "/" + m.path() + "/", Map.of("limit", List.of("1")));
        if (!r.ok() || r.body() == null || r.body().path("results").isEmpty()) {
            return null;
        }
        return r.body().path("results").get(0).path("id").asLong();
    }

    /** The page's body; a failure is noted with its status and an excerpt. */
    private static String check(String path, List<String> failures) {
        Response r = Api.auth().accept("text/html").get(path);
        String body = r.asString();
        if (r.statusCode() >= 400) {
            failures.add(path + " → " + r.statusCode() + " " + excerpt(body, 0));
            return body;
        }
        Matcher m = UNRENDERED.matcher(body);
        if (m.find()) {
            failures.add(path + " → unrendered " + excerpt(body, m.start()));
        }
        return body;
    }

    private static String excerpt(String body, int at) {
        int from = Math.max(0, at - 60);
        return body.substring(from, Math.min(body.length(), from + 200)).replaceAll("\\s+", " ");
    }
}
