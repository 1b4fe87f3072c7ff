package org.sourceoftruth.records.graphql;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import org.sourceoftruth.records.auth.AuthConfig;

/**
 * The page a browser gets at {@code /graphql/}: GraphiQL (the GraphQL Foundation's editor, with
 * completion and the schema's documentation from introspection), from the webjars on Maven
 * Central ({@link GraphiqlAssets}); nothing from a CDN. It runs queries with the browser's
 * session, sending the CSRF token the API asks of a session's POST.
 */
@ApplicationScoped
public class GraphiqlPage {
    @Location("graphiql")
    Template page;

    @Inject
    AuthConfig auth;

    private volatile String html;

    /** Whether the Accept header asks for HTML before JSON (a browser's navigation). */
    boolean wanted(String accept) {
        if (accept == null) {
            return false;
        }
        int html = accept.indexOf("text/html");
        int json = accept.indexOf("application/json");
        return html >= 0 && (json < 0 || html < json);
    }

    Response response() {
        return Response.ok(html(), "text/html; charset=utf-8").build();
    }

    // The same page for everyone: the session and its token come from the browser's cookies.
    private String html() {
        String h = html;
        if (h == null) {
            h = page.data("reactJs", GraphiqlAssets.REACT_JS)
                    .data("reactDomJs", GraphiqlAssets.REACT_DOM_JS)
                    .data("graphiqlJs", GraphiqlAssets.GRAPHIQL_JS)
                    .data("graphiqlCss", GraphiqlAssets.GRAPHIQL_CSS)
                    .data("mountJs", GraphiqlAssets.MOUNT_JS)
                    .data("csrfCookie", auth.csrfCookieName())
                    .render();
            html = h;
        }
        return h;
    }
}
