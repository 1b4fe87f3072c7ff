package org.sourceoftruth.dispatcher.observability;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.UUID;
import org.sourceoftruth.observability.RequestLog;

/**
 * Gives each of the dispatcher's HTTP requests an id (the answer's X-Request-ID) and its log
 * context and access line, as records-api's requests ({@link RequestLog}); the admin caller joins
 * the context in admin/CredentialCheck.
 */
@ApplicationScoped
public class RequestLogging {

    void install(@Observes Router router) {
        router.route().order(-1000).handler(ctx -> {
            String id = UUID.randomUUID().toString();
            RequestLog.begin(ctx, id);
            ctx.addHeadersEndHandler(v -> ctx.response().headers().set("X-Request-ID", id));
            ctx.next();
        });
    }
}
