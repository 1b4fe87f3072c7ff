package org.sourceoftruth.records.api;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.engine.query.FilterCompiler;

/**
 * Listing: every lookup kind, OR within a parameter, AND across parameters, tags AND,
 * custom-field filter logic, ordering, paging links, brief, field selection and cursor mode.
 * Each test works on its own objects, marked by a unique description.
 */
@QuarkusTest
class EngineListTest {
    @Inject
    FilterCompiler filters;

    private String mark;
    private final List<Integer> sites = new ArrayList<>();

    @AfterEach
    void configuredFiltering() {
        filters.strictFiltering(null);
    }

    @BeforeEach
    void fiveSites() {
        mark = "m" + Api.uniq();
        String[][] data = {
            {"alpha", "active", "10"},
            {"Bravo", "planned", "20"},
            {"charlie", "active", "30"},
            {"delta", "retired", ""},
            {"echo", "staging", "50"}
        };
        for (String[] d : data) {
            String name = d[0] + "-" + mark;
            sites.add(create(
                    "/api/dcim/sites/",
                    Map.of(
                            "name",
                            name,
                            "slug",
                            name.toLowerCase(),
                            "status",
                            d[1],
                            "facility",
                            d[2],
                            "description",
                            mark)));
        }
    }

    private List<String> names(String query) {
        return auth().get("/api/dcim/sites/?description=" + mark + "&limit=100&" + query)
                .then()
                .statusCode(200)
                .extract()
                .path("results.name");
    }

    private static List<String> n(String... prefixes) {
        return List.of(prefixes);
    }

    @Test
    void stringLookups() {
        org.hamcrest.MatcherAssert.assertThat(names("name__ic=RAV"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("name__isw=b"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("name__nisw=b"), hasSize(4));
        org.hamcrest.MatcherAssert.assertThat(names("name__iew=" + mark), hasSize(5));
        org.hamcrest.MatcherAssert.assertThat(names("name__niew=" + mark), hasSize(0));
        org.hamcrest.MatcherAssert.assertThat(names("name__nic=LPH"), hasSize(4));
        org.hamcrest.MatcherAssert.assertThat(names("name__ie=BRAVO-" + mark), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("name__nie=BRAVO-" + mark), hasSize(4));
        org.hamcrest.MatcherAssert.assertThat(names("name__regex=^(alpha|echo)-"), hasSize(2));
        org.hamcrest.MatcherAssert.assertThat(names("name__iregex=^BRAVO"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("facility__empty=true"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("facility__empty=false"), hasSize(4));
        org.hamcrest.MatcherAssert.assertThat(names("facility__n=10&facility__n=20"), hasSize(3));
    }

    @Test
    void orWithinParameterAndAcrossParameters() {
        org.hamcrest.MatcherAssert.assertThat(names("status=active&status=planned"), hasSize(3));
        org.hamcrest.MatcherAssert.assertThat(names("status=active&name__isw=c"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("status__n=active"), hasSize(3));
        org.hamcrest.MatcherAssert.assertThat(names("facility__ic=0&facility__ic=5"), hasSize(4));
    }

    @Test
    void numericAndDateLookups() {
        int first = sites.get(0);
        org.hamcrest.MatcherAssert.assertThat(names("id__gt=" + first), hasSize(4));
        org.hamcrest.MatcherAssert.assertThat(names("id__gte=" + first), hasSize(5));
        org.hamcrest.MatcherAssert.assertThat(names("id__lt=" + sites.get(2)), hasSize(2));
        org.hamcrest.MatcherAssert.assertThat(names("id__lte=" + sites.get(2)), hasSize(3));
        org.hamcrest.MatcherAssert.assertThat(names("id=" + first + "&id=" + sites.get(4)), hasSize(2));
        org.hamcrest.MatcherAssert.assertThat(names("id__n=" + first), hasSize(4));
        org.hamcrest.MatcherAssert.assertThat(names("created__gte=2000-01-01"), hasSize(5));
        org.hamcrest.MatcherAssert.assertThat(names("created__lt=2000-01-01T00:00:00Z"), hasSize(0));
        org.hamcrest.MatcherAssert.assertThat(names("latitude__empty=true"), hasSize(5));
    }

    @Test
    void foreignKeyFiltersBySlugAndIdIncludingTreeDescendants() {
        String eu = "eu-" + mark;
        String de = "de-" + mark;
        int euId = create("/api/dcim/regions/", Map.of("name", eu, "slug", eu));
        int deId = create("/api/dcim/regions/", Map.of("name", de, "slug", de, "parent", euId));
        auth().body(Map.of("region", deId))
                .patch("/api/dcim/sites/" + sites.get(0) + "/")
                .then()
                .statusCode(200);
        auth().body(Map.of("region", euId))
                .patch("/api/dcim/sites/" + sites.get(1) + "/")
                .then()
                .statusCode(200);
        org.hamcrest.MatcherAssert.assertThat(names("region=" + eu), hasSize(2));
        org.hamcrest.MatcherAssert.assertThat(names("region=" + de), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("region_id=" + deId), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("region_id=null"), hasSize(3));
        org.hamcrest.MatcherAssert.assertThat(names("region__n=" + de), hasSize(4));
        auth().get("/api/dcim/sites/?region=nope-" + mark)
                .then()
                .statusCode(400)
                .body(
                        "region",
                        contains("Select a valid choice. nope-" + mark + " is not one of the available choices."));
    }

    /**
     * Filters NetBox declares on many filtersets are derived from relations: ancestor on trees,
     * tenant_group through the tenant, region through the site, and __n of each (objects
     * without the relation kept, as Django's exclude()).
     */
    @Test
    void relationFiltersAreDerivedWithNegation() {
        String eu = "eu-" + mark;
        String de = "de-" + mark;
        int euId = create("/api/dcim/regions/", Map.of("name", eu, "slug", eu));
        int deId = create("/api/dcim/regions/", Map.of("name", de, "slug", de, "parent", euId));
        auth().get("/api/dcim/regions/?ancestor=" + eu).then().statusCode(200).body("results.name", contains(de));
        auth().get("/api/dcim/regions/?ancestor_id=" + deId)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        auth().get("/api/dcim/regions/?ancestor__n=" + eu + "&name=" + eu)
                .then()
                .statusCode(200)
                .body("count", equalTo(1));
        auth().get("/api/dcim/regions/?ancestor__n=" + eu + "&name=" + de)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));

        String tg = "tg-" + mark;
        int tgId = create("/api/tenancy/tenant-groups/", Map.of("name", tg, "slug", tg));
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "tn-" + mark, "slug", "tn-" + mark, "group", tgId));
        auth().body(Map.of("tenant", tenant, "region", deId))
                .patch("/api/dcim/sites/" + sites.get(0) + "/")
                .then()
                .statusCode(200);
        org.hamcrest.MatcherAssert.assertThat(names("tenant_group=" + tg), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("tenant_group_id__n=" + tgId), hasSize(4));

        int rack = create("/api/dcim/racks/", Map.of("name", "rk-" + mark, "site", sites.get(0)));
        auth().get("/api/dcim/racks/?region=" + eu).then().statusCode(200).body("results.id", contains(rack));
        auth().get("/api/dcim/racks/?region_id__n=" + euId + "&name=rk-" + mark)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
        auth().get("/api/dcim/racks/?tenant_group=" + tg + "&name=rk-" + mark)
                .then()
                .statusCode(200)
                .body("count", equalTo(0));
    }

    /** Relations to models not served yet (provider accounts, cables) filter the data that exists: none. */
    @Test
    void filtersOnUnbuiltRelationsMatchNoRelatedObject() {
        filters.strictFiltering(true); // declared filters, not ignored ones
        auth().get("/api/circuits/circuits/?provider_account_id=1")
                .then()
                .statusCode(400)
                .body("provider_account_id", contains("Select a valid choice. 1 is not one of the available choices."));
        int circuits = auth().get("/api/circuits/circuits/")
                .then()
                .statusCode(200)
                .extract()
                .path("count");
        auth().get("/api/circuits/circuits/?provider_account_id=null")
                .then()
                .statusCode(200)
                .body("count", equalTo(circuits));
        auth().get("/api/dcim/interfaces/?cabled=true").then().statusCode(200).body("count", equalTo(0));
        auth().get("/api/dcim/interfaces/?occupied=false").then().statusCode(200);
    }

    @Test
    void tagsAreAndedAnyIsOredNIsNone() {
        int red = create("/api/extras/tags/", Map.of("name", "red-" + mark, "slug", "red-" + mark));
        int blue = create("/api/extras/tags/", Map.of("name", "blue-" + mark, "slug", "blue-" + mark));
        auth().body(Map.of("tags", List.of(red, blue)))
                .patch("/api/dcim/sites/" + sites.get(0) + "/")
                .then()
                .statusCode(200);
        auth().body(Map.of("tags", List.of(red)))
                .patch("/api/dcim/sites/" + sites.get(1) + "/")
                .then()
                .statusCode(200);
        org.hamcrest.MatcherAssert.assertThat(names("tag=red-" + mark), hasSize(2));
        org.hamcrest.MatcherAssert.assertThat(names("tag=red-" + mark + "&tag=blue-" + mark), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("tag_id=" + red + "&tag_id=" + blue), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("tag__any=blue-" + mark + "&tag__any=red-" + mark), hasSize(2));
        org.hamcrest.MatcherAssert.assertThat(names("tag__n=red-" + mark), hasSize(3));
    }

    @Test
    void customFieldFiltersFollowFilterLogic() {
        String loose = "loose_" + mark;
        String exact = "exact_" + mark;
        create(
                "/api/extras/custom-fields/",
                Map.of("name", loose, "object_types", List.of("dcim.site"), "type", "text"));
        create(
                "/api/extras/custom-fields/",
                Map.of("name", exact, "object_types", List.of("dcim.site"), "type", "text", "filter_logic", "exact"));
        auth().body(Map.of("custom_fields", Map.of(loose, "Rack Row 12", exact, "Rack Row 12")))
                .patch("/api/dcim/sites/" + sites.get(0) + "/")
                .then()
                .statusCode(200);
        org.hamcrest.MatcherAssert.assertThat(names("cf_" + loose + "=row"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("cf_" + exact + "=row"), hasSize(0));
        org.hamcrest.MatcherAssert.assertThat(names("cf_" + exact + "=Rack Row 12"), hasSize(1));
        org.hamcrest.MatcherAssert.assertThat(names("cf_" + loose + "=row&status=planned"), hasSize(0));
    }

    @Test
    void orderingAscendingDescendingAndMultiKey() {
        org.hamcrest.MatcherAssert.assertThat(names("ordering=facility").subList(0, 1), contains("delta-" + mark));
        org.hamcrest.MatcherAssert.assertThat(names("ordering=-facility").get(0), equalTo("echo-" + mark));
        List<String> multi = names("ordering=status,-name");
        org.hamcrest.MatcherAssert.assertThat(
                multi, contains("charlie-" + mark, "alpha-" + mark, "Bravo-" + mark, "delta-" + mark, "echo-" + mark));
        org.hamcrest.MatcherAssert.assertThat(names("ordering=nonsense"), hasSize(5));
    }

    @Test
    void paginationLinksAcrossThreePages() {
        String base = "/api/dcim/sites/?description=" + mark + "&ordering=name";
        var page1 = auth().get(base + "&limit=2")
                .then()
                .statusCode(200)
                .body("count", equalTo(5))
                .body("results", hasSize(2))
                .body("previous", nullValue())
                .extract();
        String next = page1.path("next");
        org.hamcrest.MatcherAssert.assertThat(next, containsString("limit=2"));
        org.hamcrest.MatcherAssert.assertThat(next, containsString("offset=2"));
        org.hamcrest.MatcherAssert.assertThat(next, containsString("description=" + mark));
        org.hamcrest.MatcherAssert.assertThat(next, containsString("ordering=name"));
        var page2 = auth().get(next)
                .then()
                .statusCode(200)
                .body("results", hasSize(2))
                .extract();
        String prev = page2.path("previous");
        org.hamcrest.MatcherAssert.assertThat(prev, not(containsString("offset")));
        var page3 = auth().get((String) page2.path("next"))
                .then()
                .statusCode(200)
                .body("results", hasSize(1))
                .body("next", nullValue())
                .extract();
        org.hamcrest.MatcherAssert.assertThat((String) page3.path("previous"), containsString("offset=2"));
        List<String> all = new ArrayList<>();
        all.addAll(page1.path("results.name"));
        all.addAll(page2.path("results.name"));
        all.addAll(page3.path("results.name"));
        org.hamcrest.MatcherAssert.assertThat(all, containsInAnyOrder(names("").toArray()));
        // forwarded host and scheme are honoured in links
        auth().header("X-Forwarded-Proto", "https")
                .header("X-Forwarded-Host", "nb.example.com")
                .get(base + "&limit=2")
                .then()
                .body("next", org.hamcrest.Matchers.startsWith("https://nb.example.com/api/dcim/sites/"))
                .body("results[0].url", org.hamcrest.Matchers.startsWith("https://nb.example.com/api/"));
    }

    @Test
    void limitFallbacksAndCursorMode() {
        auth().get("/api/dcim/sites/?description=" + mark + "&limit=-1")
                .then()
                .statusCode(200)
                .body("results", hasSize(5));
        auth().get("/api/dcim/sites/?description=" + mark + "&limit=abc&offset=abc")
                .then()
                .statusCode(200);
        auth().get("/api/dcim/sites/?description=" + mark + "&start=" + sites.get(1) + "&limit=2")
                .then()
                .statusCode(200)
                .body("count", nullValue())
                .body("results.id", contains(sites.get(1), sites.get(2)))
                .body("next", containsString("start=" + (sites.get(2) + 1)));
        auth().get("/api/dcim/sites/?start=1&offset=2")
                .then()
                .statusCode(400)
                .body("[0]", equalTo("'start' and 'offset' are mutually exclusive."));
        auth().get("/api/dcim/sites/?start=-4").then().statusCode(400);
    }

    @Test
    void briefAndFieldSelection() {
        auth().get("/api/dcim/sites/?description=" + mark + "&brief=1&limit=1")
                .then()
                .statusCode(200)
                .body("results[0].keySet()", contains("id", "url", "display", "name", "slug", "description"));
        auth().get("/api/dcim/sites/" + sites.get(0) + "/?brief=true")
                .then()
                .statusCode(200)
                .body("keySet()", contains("id", "url", "display", "name", "slug", "description"));
        auth().get("/api/dcim/sites/" + sites.get(0) + "/?fields=name,id,status")
                .then()
                .statusCode(200)
                .body("keySet()", contains("id", "name", "status"));
        auth().get("/api/dcim/sites/" + sites.get(0) + "/?omit=tags,custom_fields")
                .then()
                .statusCode(200)
                .body("$", not(hasKey("tags")))
                .body("$", hasKey("name"));
    }

    @Test
    void badFilterValuesAndUnknownFiltersAre400() {
        filters.strictFiltering(true);
        auth().get("/api/dcim/sites/?id=x").then().statusCode(400).body("id", contains("Enter a whole number."));
        auth().get("/api/dcim/sites/?status=foo")
                .then()
                .statusCode(400)
                .body("status", contains("Select a valid choice. foo is not one of the available choices."));
        auth().get("/api/dcim/sites/?nmae=typo").then().statusCode(400).body("$", hasKey("nmae"));
        auth().get("/api/dcim/sites/?name__bogus=x").then().statusCode(400).body("$", hasKey("name__bogus"));
        auth().get("/api/dcim/sites/?name__regex=(unclosed").then().statusCode(400);
        auth().get("/api/dcim/sites/?created__gt=yesterday")
                .then()
                .statusCode(400)
                .body("created__gt", contains("Enter a valid date/time."));
    }

    /** By default (STRICT_FILTERING=false) an unknown filter is ignored, as NetBox does; bad values stay 400. */
    @Test
    void unknownFiltersAreIgnoredByDefault() {
        auth().get("/api/dcim/sites/?nmae=typo&name__bogus=x&slug=" + "alpha-" + mark)
                .then()
                .statusCode(200)
                .body("count", equalTo(1));
        auth().get("/api/dcim/sites/?nmae=typo&id=x")
                .then()
                .statusCode(400)
                .body("$", hasKey("id"))
                .body("$", not(hasKey("nmae")));
    }

    @Test
    void freeTextSearch() {
        org.hamcrest.MatcherAssert.assertThat(names("q=CHARLIE"), contains("charlie-" + mark));
    }
}
