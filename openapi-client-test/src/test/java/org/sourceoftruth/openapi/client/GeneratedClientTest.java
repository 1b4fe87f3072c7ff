package org.sourceoftruth.openapi.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.netbox.client.ApiClient;
import org.sourceoftruth.netbox.client.ApiException;
import org.sourceoftruth.netbox.client.api.DcimApi;
import org.sourceoftruth.netbox.client.api.DcimApi.APIDcimSitesCreateRequest;
import org.sourceoftruth.netbox.client.api.DcimApi.APIDcimSitesDestroyRequest;
import org.sourceoftruth.netbox.client.api.DcimApi.APIDcimSitesListRequest;
import org.sourceoftruth.netbox.client.api.DcimApi.APIDcimSitesPartialUpdateRequest;
import org.sourceoftruth.netbox.client.api.DcimApi.APIDcimSitesRetrieveRequest;
import org.sourceoftruth.netbox.client.model.PaginatedSiteList;
import org.sourceoftruth.netbox.client.model.PatchedWritableSiteRequest;
import org.sourceoftruth.netbox.client.model.Site;
import org.sourceoftruth.netbox.client.model.WritableSiteRequest;
import org.sourceoftruth.records.testsupport.RecordsApiProcess;

/**
 * The Java client openapi-generator wrote at build time from the packaged records-api's
 * /api/schema/ (see this module's pom) works against the running service: it creates, reads,
 * changes, filters and deletes a site with NetBox's operation and type names, the token sent as
 * the document's tokenAuth scheme says.
 */
class GeneratedClientTest {
    private static final String TOKEN = "c1e47c1e47c1e47c1e47c1e47c1e47c1e47c1e47";
    private static RecordsApiProcess recordsApi;
    private static DcimApi dcim;

    @BeforeAll
    static void start() throws Exception {
        String database = System.getenv().getOrDefault("TEST_DB_NAME", "sot_test");
        recordsApi = RecordsApiProcess.launcher()
                .name("records-api-client")
                .database(database.isBlank() ? "sot_test" : database)
                .property("sot.outbox.enabled", "false") // the change topic is not what this tests
                .superuser("openapi-client", "Openapi-client-1", TOKEN)
                .start();
        ApiClient client = new ApiClient();
        client.updateBaseUri(recordsApi.url());
        client.setRequestInterceptor(request -> request.header("Authorization", "Token " + TOKEN));
        dcim = new DcimApi(client);
    }

    @AfterAll
    static void stop() {
        if (recordsApi != null) {
            recordsApi.close();
        }
    }

    @Test
    void createReadFilterChangeAndDeleteASite() throws ApiException {
        String slug = "client-" + UUID.randomUUID().toString().substring(0, 8);
        Site created = dcim.dcimSitesCreate(APIDcimSitesCreateRequest.newBuilder()
                .writableSiteRequest(new WritableSiteRequest()
                        .name(slug.toUpperCase())
                        .slug(slug)
                        .status(WritableSiteRequest.StatusEnum.PLANNED)
                        .description("made by the generated client"))
                .build());
        assertTrue(created.getId() > 0);
        assertEquals(slug, created.getSlug());
        assertEquals(
                recordsApi.url() + "/api/dcim/sites/" + created.getId() + "/",
                created.getUrl().toString());
        assertNull(created.getRegion());

        Site read = dcim.dcimSitesRetrieve(
                APIDcimSitesRetrieveRequest.newBuilder().id(created.getId()).build());
        assertEquals(slug.toUpperCase(), read.getName());
        assertEquals("planned", read.getStatus().getValue().getValue());
        assertEquals("Planned", read.getStatus().getLabel().getValue());
        assertEquals("made by the generated client", read.getDescription());

        PaginatedSiteList bySlug = dcim.dcimSitesList(
                APIDcimSitesListRequest.newBuilder().slug(List.of(slug)).build());
        assertEquals(1, bySlug.getCount());
        assertEquals(created.getId(), bySlug.getResults().get(0).getId());
        PaginatedSiteList bySubstring = dcim.dcimSitesList(APIDcimSitesListRequest.newBuilder()
                .nameIc(List.of(slug.substring(7).toLowerCase()))
                .build());
        assertTrue(bySubstring.getResults().stream().anyMatch(s -> s.getId().equals(created.getId())));
        PaginatedSiteList otherStatus = dcim.dcimSitesList(APIDcimSitesListRequest.newBuilder()
                .slug(List.of(slug))
                .status(List.of("retired"))
                .build());
        assertEquals(0, otherStatus.getCount(), "the status filter is applied");

        Site changed = dcim.dcimSitesPartialUpdate(APIDcimSitesPartialUpdateRequest.newBuilder()
                .id(created.getId())
                .patchedWritableSiteRequest(new PatchedWritableSiteRequest().description("changed"))
                .build());
        assertEquals("changed", changed.getDescription());
        assertEquals("planned", changed.getStatus().getValue().getValue());

        dcim.dcimSitesDestroy(
                APIDcimSitesDestroyRequest.newBuilder().id(created.getId()).build());
        ApiException gone = assertThrows(
                ApiException.class,
                () -> dcim.dcimSitesRetrieve(APIDcimSitesRetrieveRequest.newBuilder()
                        .id(created.getId())
                        .build()));
        assertEquals(404, gone.getCode());
        assertEquals(
                0,
                dcim.dcimSitesList(APIDcimSitesListRequest.newBuilder()
                                .slug(List.of(slug))
                                .build())
                        .getCount());
    }

    @Test
    void refusedInputComesBackAsTheApisError() {
        ApiException refused = assertThrows(
                ApiException.class,
                () -> dcim.dcimSitesCreate(APIDcimSitesCreateRequest.newBuilder()
                        .writableSiteRequest(new WritableSiteRequest().name("x").slug("not a slug"))
                        .build()));
        assertEquals(400, refused.getCode());
        assertTrue(refused.getResponseBody().contains("slug"), refused.getResponseBody());
    }
}
