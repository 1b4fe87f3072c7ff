package org.sourceoftruth.records.api.openapi;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.Paths;
import org.jboss.logging.Logger;

/**
 * Builds /api/schema/ from the model registry, on request: the model part is built on the first
 * request and kept (a second or so on a busy machine, which start-up need not pay); each request
 * then adds it to a copy of the scanned document, which is serialized. SmallRye's annotation
 * scan sees the generic resource only as {@code /api/{app}/{model}/} and the API root's catch-all; those
 * templates and the HTML login pages are removed, and {@link OpenApiDocument} adds one path per
 * served model URL. What the scan found of the other resources (users/config, tokens/provision,
 * status, ...) stays, named by their own annotations.
 */
@ApplicationScoped
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_PER_REQUEST)
public class RegistryOpenApiFilter implements OASFilter {
    private static final Logger LOG = Logger.getLogger(RegistryOpenApiFilter.class);

    @Inject
    OpenApiDocument document;

    @Override
    public void filterOpenAPI(OpenAPI api) {
        Paths paths = api.getPaths();
        if (paths != null && paths.getPathItems() != null) {
            for (String path : new ArrayList<>(paths.getPathItems().keySet())) {
                PathItem item = paths.getPathItem(path);
                paths.removePathItem(path);
                // the scan drops the trailing slash NetBox's URLs (and this API's router) require
                if (path.startsWith("/api/") && !path.contains("{app}") && !path.contains("{any}")) {
                    paths.addPathItem(path.endsWith("/") ? path : path + "/", item);
                }
            }
        }
        long start = System.nanoTime();
        document.describe(api);
        LOG.debugf(
                "OpenAPI document: %d paths, %d schemas in %d ms",
                api.getPaths().getPathItems().size(),
                api.getComponents().getSchemas().size(),
                (System.nanoTime() - start) / 1_000_000);
    }
}
