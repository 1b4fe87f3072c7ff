package org.sourceoftruth.records.ui;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.web.AnswersOptions;

/** The home page (object counts per application, the latest changes) and the global search. */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class HomePages implements AnswersOptions {
    static final long LATEST_CHANGES = 15;

    @Inject
    Pages pages;

    @Inject
    ObjectCounts counts;

    @Inject
    ChangeLogView changes;

    @Inject
    GlobalSearch search;

    @Location("ui/home")
    Template home;

    @Location("ui/search")
    Template results;

    @Context
    HttpHeaders headers;

    @GET
    @Operation(hidden = true)
    public Response home() {
        return pages.guard(
                headers,
                () -> Pages.html(
                        200,
                        pages.page(home, "Home", headers)
                                .data("apps", counts.forCaller())
                                .data("changes", changes.latest(LATEST_CHANGES))));
    }

    @GET
    @Path("search/")
    @Operation(hidden = true)
    public Response search(@QueryParam("q") String q) {
        return pages.guard(headers, () -> {
            String text = q == null ? "" : q.strip();
            return Pages.html(
                    200,
                    results.data("ui", pages.chrome("Search", headers, text))
                            .data("q", text)
                            .data("groups", text.isEmpty() ? java.util.List.of() : search.find(text)));
        });
    }
}
