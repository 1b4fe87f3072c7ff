package org.sourceoftruth.records.api.openapi;

import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.Paths;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.sourceoftruth.records.auth.AuthConfig;
import org.sourceoftruth.records.engine.query.FilterCatalog;
import org.sourceoftruth.records.engine.write.PayloadReader;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.ApiConfig;

/**
 * Writes the OpenAPI description of every model endpoint from the model registry, as NetBox's
 * drf-spectacular document describes it: per model a list path (GET with every filter, POST,
 * bulk PUT/PATCH/DELETE) and a detail path (GET, PUT, PATCH, DELETE), the components
 * {@link OpenApiNames} names, NetBox's operation ids, the {@code tokenAuth} and
 * {@code cookieAuth} security schemes. Resources of their own add their paths through
 * {@link OpenApiContribution}s.
 */
@ApplicationScoped
public class OpenApiDocument {
    /** The schemes NetBox's document declares (DRF's TokenAuthentication and Django's session). */
    public static final String TOKEN_AUTH = "tokenAuth";

    public static final String COOKIE_AUTH = "cookieAuth";

    @Inject
    ModelRegistry registry;

    @Inject
    FilterCatalog filters;

    @Inject
    @All
    List<OpenApiContribution> contributions;

    @Inject
    ApiConfig apiConfig;

    @Inject
    AuthConfig authConfig;

    /** What {@link #describe} adds, built once (on the first request for the document). */
    private volatile OpenAPI described;

    /**
     * Adds the model endpoints, their components, the contributed paths and the security schemes
     * to {@code api} (a fresh copy of the scanned document on each call).
     */
    public void describe(OpenAPI api) {
        OpenAPI parts = described();
        api.info(parts.getInfo());
        api.security(new ArrayList<>(parts.getSecurity()));
        if (api.getComponents() == null) {
            api.components(OASFactory.createComponents());
        }
        if (api.getPaths() == null) {
            api.paths(OASFactory.createPaths());
        }
        parts.getComponents().getSecuritySchemes().forEach(api.getComponents()::addSecurityScheme);
        parts.getComponents().getSchemas().forEach(api.getComponents()::addSchema);
        parts.getPaths().getPathItems().forEach(api.getPaths()::addPathItem);
    }

    private OpenAPI described() {
        OpenAPI parts = described;
        if (parts == null) {
            synchronized (this) {
                parts = described;
                if (parts == null) {
                    parts = build();
                    described = parts;
                }
            }
        }
        return parts;
    }

    private OpenAPI build() {
        OpenAPI api = OASFactory.createOpenAPI()
                .components(OASFactory.createComponents())
                .paths(OASFactory.createPaths());
        api.info(OASFactory.createInfo()
                .title("NetBox REST API")
                .version(apiConfig.apiVersion())
                .description("A NetBox-compatible source of truth. Authenticate with an API token"
                        + " (Authorization: Token <key>) or a login session."));
        Components components = api.getComponents();
        components.addSecurityScheme(
                TOKEN_AUTH,
                OASFactory.createSecurityScheme()
                        .type(SecurityScheme.Type.APIKEY)
                        .in(SecurityScheme.In.HEADER)
                        .name("Authorization")
                        .description("Token-based authentication with required prefix \"Token\": Token <key>"));
        components.addSecurityScheme(
                COOKIE_AUTH,
                OASFactory.createSecurityScheme()
                        .type(SecurityScheme.Type.APIKEY)
                        .in(SecurityScheme.In.COOKIE)
                        .name(authConfig.sessionCookieName()));
        api.security(new ArrayList<>(List.of(
                OASFactory.createSecurityRequirement().addScheme(COOKIE_AUTH),
                OASFactory.createSecurityRequirement().addScheme(TOKEN_AUTH))));

        FieldSchemas schemas = new FieldSchemas(type -> registry.require(type).apiName());
        List<Model> models = new ArrayList<>(registry.all());
        models.sort(Comparator.comparing(Model::app).thenComparing(Model::path));
        Set<String> requestTargets = relationTargets(models);
        addTagComponents(components, schemas);
        for (Model m : models) {
            addComponents(components, schemas, m, requestTargets.contains(m.contentType()));
            addPaths(api.getPaths(), m, m.app(), m.path());
            for (String alias : m.aliasPaths()) {
                int slash = alias.indexOf('/');
                addPaths(api.getPaths(), m, alias.substring(0, slash), alias.substring(slash + 1));
            }
        }
        contributions.forEach(c -> c.contribute(api));
        return api;
    }

    // ----------------------------------------------------------------- components

    /** Models some writable relation points at: they need a {@code Brief<X>Request}. */
    private static Set<String> relationTargets(List<Model> models) {
        Set<String> targets = new HashSet<>();
        for (Model m : models) {
            for (Field f : m.fields()) {
                if (f.kind == Kind.FK && f.isWritable()) {
                    targets.add(f.target());
                }
            }
        }
        return targets;
    }

    private void addComponents(Components components, FieldSchemas schemas, Model m, boolean relationTarget) {
        Schema full = object(m.verboseName());
        Schema brief = object(m.verboseName() + " (brief form, as nested in other objects)");
        for (Field f : m.fields()) {
            if (f.isWriteOnly()) {
                continue;
            }
            // always rendered: what the server sets, and what every write must give
            boolean alwaysThere = !f.isSecret() && (!f.isWritable() || f.isRequired());
            addAll(full, schemas.readProperties(f), alwaysThere);
            if (m.briefNames().contains(f.name)) {
                addAll(brief, schemas.readProperties(f), alwaysThere);
            }
        }
        components.addSchema(OpenApiNames.full(m), full);
        components.addSchema(OpenApiNames.brief(m.apiName()), brief);
        components.addSchema(OpenApiNames.paginated(m), paginated(m));
        Schema request = object(m.verboseName() + " (create and update)");
        Schema patched = object(m.verboseName() + " (partial update)");
        Schema briefRequest = object(m.verboseName() + " given by attributes that identify exactly one");
        for (Field f : m.fields()) {
            if (!f.isWritable() && !(f.isWriteOnly() && !f.isReadOnly())) {
                continue;
            }
            addAll(request, schemas.writeProperties(f), f.isRequired());
            addAll(patched, schemas.writeProperties(f), false);
            if (m.briefNames().contains(f.name)) {
                addAll(briefRequest, schemas.writeProperties(f), false);
            }
        }
        addRequestOnlyProperties(schemas, m, request);
        addRequestOnlyProperties(schemas, m, patched);
        if (!m.isReadOnlyApi()) {
            components.addSchema(OpenApiNames.request(m), request);
            components.addSchema(OpenApiNames.patchedRequest(m), patched);
        }
        if (relationTarget) { // even of a read-only endpoint: a relation to it is written this way
            components.addSchema(OpenApiNames.briefRequest(m.apiName()), briefRequest);
        }
    }

    /**
     * What a write may send beyond the model's fields: the tag changes of every taggable model
     * ({@code add_tags}, {@code remove_tags}, lists like {@code tags}) and the component options
     * of models made with their type's components ({@code replicate_components},
     * {@code adopt_components}); write-only, as NetBox's serializers declare them.
     */
    private static void addRequestOnlyProperties(FieldSchemas schemas, Model m, Schema object) {
        if (m.hasTags()) {
            for (String name : List.of(PayloadReader.ADD_TAGS, PayloadReader.REMOVE_TAGS)) {
                // a schema of its own each: writeOnly must not reach the tags' schema
                object.addProperty(
                        name,
                        schemas.writeProperties(m.field("tags")).get("tags").writeOnly(true));
            }
        }
        if (m.hasComponentOptions()) {
            object.addProperty(
                    "replicate_components",
                    OASFactory.createSchema()
                            .type(List.of(SchemaType.BOOLEAN))
                            .writeOnly(true)
                            .defaultValue(true)
                            .description("Automatically populate components associated with this module type"));
            object.addProperty(
                    "adopt_components",
                    OASFactory.createSchema()
                            .type(List.of(SchemaType.BOOLEAN))
                            .writeOnly(true)
                            .defaultValue(false)
                            .description("Adopt already existing components"));
        }
    }

    private static void addAll(Schema object, Map<String, Schema> properties, boolean required) {
        properties.forEach((name, schema) -> {
            object.addProperty(name, schema);
            if (required) {
                object.addRequired(name);
            }
        });
    }

    /** NestedTag / NestedTagRequest: how tags appear on tagged objects, from the tag model's fields. */
    private void addTagComponents(Components components, FieldSchemas schemas) {
        Model tag = registry.require("extras.tag");
        Schema nested = object("A tag, as shown on tagged objects");
        Schema request = object("A tag given by its attributes");
        for (String name : List.of("id", "url", "display_url", "display", "name", "slug", "color")) {
            Field f = tag.field(name);
            if (f == null) {
                continue;
            }
            nested.addProperty(name, schemas.readProperties(f).get(name));
            if (!f.isWritable()) {
                nested.addRequired(name);
            } else {
                request.addProperty(name, schemas.writeProperties(f).get(name));
            }
            if (f.isRequired()) {
                nested.addRequired(name);
                request.addRequired(name);
            }
        }
        components.addSchema(OpenApiNames.NESTED_TAG, nested);
        components.addSchema(OpenApiNames.NESTED_TAG_REQUEST, request);
    }

    private static Schema paginated(Model m) {
        Schema uri = FieldSchemas.nullable(FieldSchemas.basic(Kind.STRING).format("uri"));
        return OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .addProperty(
                        "count",
                        FieldSchemas.basic(Kind.INTEGER)
                                .description("Number of matching objects (null with cursor pagination, ?start=)"))
                .addProperty("next", uri)
                .addProperty(
                        "previous",
                        FieldSchemas.nullable(FieldSchemas.basic(Kind.STRING).format("uri")))
                .addProperty("results", FieldSchemas.array(FieldSchemas.ref(OpenApiNames.full(m))))
                .required(new ArrayList<>(List.of("count", "results")));
    }

    private static Schema object(String description) {
        return OASFactory.createSchema().addType(SchemaType.OBJECT).description(description);
    }

    // ---------------------------------------------------------------------- paths

    private void addPaths(Paths paths, Model m, String app, String path) {
        String stem = OpenApiNames.operationStem(app, path);
        String listPath = "/api/" + app + "/" + path + "/";
        Schema full = FieldSchemas.ref(OpenApiNames.full(m));
        Schema request = FieldSchemas.ref(OpenApiNames.request(m));
        Schema patched = FieldSchemas.ref(OpenApiNames.patchedRequest(m));

        Operation list = operation(stem + "_list", app, "Get a list of " + m.verboseName() + " objects.")
                .responses(OASFactory.createAPIResponses()
                        .addAPIResponse("200", json("", FieldSchemas.ref(OpenApiNames.paginated(m)))));
        listParameters(m).forEach(list::addParameter);
        PathItem listItem = OASFactory.createPathItem().GET(list);

        Parameter id = OASFactory.createParameter()
                .name("id")
                .in(Parameter.In.PATH)
                .required(true)
                .description("A unique integer value identifying this " + m.verboseName() + ".")
                .schema(FieldSchemas.basic(Kind.INTEGER));
        Operation retrieve = operation(stem + "_retrieve", app, "Get a " + m.verboseName() + " object.")
                .addParameter(id)
                .responses(OASFactory.createAPIResponses().addAPIResponse("200", json("", full)));
        for (String detailParameter : List.of("brief", "fields", "omit")) {
            retrieve.addParameter(reservedParameter(detailParameter));
        }
        PathItem detailItem = OASFactory.createPathItem().GET(retrieve);

        if (!m.isReadOnlyApi()) {
            String what = m.verboseName();
            listItem.POST(operation(stem + "_create", app, "Post a list of " + what + " objects.")
                    .requestBody(body(request, m.hasImageFields()))
                    .responses(OASFactory.createAPIResponses().addAPIResponse("201", json("", full))));
            listItem.PUT(operation(
                            stem + "_bulk_update",
                            app,
                            "Put a list of " + what + " objects; every item names the object it changes by its \"id\".")
                    .requestBody(body(FieldSchemas.array(FieldSchemas.ref(OpenApiNames.request(m)))))
                    .responses(OASFactory.createAPIResponses()
                            .addAPIResponse(
                                    "200", json("", FieldSchemas.array(FieldSchemas.ref(OpenApiNames.full(m)))))));
            listItem.PATCH(operation(
                            stem + "_bulk_partial_update",
                            app,
                            "Patch a list of " + what
                                    + " objects; every item names the object it changes by its \"id\".")
                    .requestBody(body(FieldSchemas.array(FieldSchemas.ref(OpenApiNames.patchedRequest(m)))))
                    .responses(OASFactory.createAPIResponses()
                            .addAPIResponse(
                                    "200", json("", FieldSchemas.array(FieldSchemas.ref(OpenApiNames.full(m)))))));
            listItem.DELETE(operation(
                            stem + "_bulk_destroy",
                            app,
                            "Delete a list of " + what + " objects, each given as {\"id\": <id>}.")
                    .requestBody(body(FieldSchemas.array(OASFactory.createSchema()
                            .addType(SchemaType.OBJECT)
                            .addProperty("id", FieldSchemas.basic(Kind.INTEGER))
                            .required(new ArrayList<>(List.of("id"))))))
                    .responses(noContent()));
            detailItem.PUT(operation(stem + "_update", app, "Put a " + what + " object.")
                    .addParameter(id)
                    .requestBody(body(request, m.hasImageFields()))
                    .responses(OASFactory.createAPIResponses().addAPIResponse("200", json("", full))));
            detailItem.PATCH(operation(stem + "_partial_update", app, "Patch a " + what + " object.")
                    .addParameter(id)
                    .requestBody(body(patched, m.hasImageFields()))
                    .responses(OASFactory.createAPIResponses().addAPIResponse("200", json("", full))));
            detailItem.DELETE(operation(stem + "_destroy", app, "Delete a " + what + " object.")
                    .addParameter(id)
                    .responses(noContent()));
        }
        paths.addPathItem(listPath, listItem);
        paths.addPathItem(listPath + "{id}/", detailItem);
    }

    /** Every filter of the model, then paging, ordering and the representation switches. */
    private List<Parameter> listParameters(Model m) {
        Map<String, Parameter> out = new LinkedHashMap<>();
        for (FilterCatalog.Parameter p : filters.parameters(m)) {
            Schema value = FieldSchemas.filterValue(p.kind(), p.choices(), p.format());
            Parameter param = OASFactory.createParameter().name(p.name()).in(Parameter.In.QUERY);
            if (p.multiple()) {
                param.schema(FieldSchemas.array(value))
                        .style(Parameter.Style.FORM)
                        .explode(true);
            } else {
                param.schema(value);
            }
            out.put(p.name(), param);
        }
        for (String reserved : List.of("limit", "offset", "start", "ordering", "brief", "fields", "omit")) {
            out.putIfAbsent(reserved, reservedParameter(reserved));
        }
        return new ArrayList<>(out.values());
    }

    private static Parameter reservedParameter(String name) {
        Parameter p = OASFactory.createParameter().name(name).in(Parameter.In.QUERY);
        return switch (name) {
            case "limit" ->
                p.description("Number of results to return per page.").schema(FieldSchemas.basic(Kind.INTEGER));
            case "offset" ->
                p.description("The initial index from which to return the results.")
                        .schema(FieldSchemas.basic(Kind.INTEGER));
            case "start" ->
                p.description("The lowest primary key to return (cursor paging: no count, the next page starts"
                                + " after the last object)")
                        .schema(FieldSchemas.basic(Kind.INTEGER));
            case "ordering" ->
                p.description("Which field to use when ordering the results.").schema(FieldSchemas.basic(Kind.STRING));
            case "brief" ->
                p.description("Return the brief representation of each object.")
                        .schema(FieldSchemas.basic(Kind.BOOLEAN));
            case "fields" ->
                p.description("Comma-separated fields to return (and no others).")
                        .schema(FieldSchemas.basic(Kind.STRING));
            default -> p.description("Comma-separated fields to leave out.").schema(FieldSchemas.basic(Kind.STRING));
        };
    }

    // ------------------------------------------------------------------- helpers

    /** An operation with NetBox's conventions: operation id, the application as its tag. */
    public static Operation operation(String operationId, String tag, String description) {
        return OASFactory.createOperation()
                .operationId(operationId)
                .description(description)
                .tags(new ArrayList<>(List.of(tag)));
    }

    /** A reference to a component, possibly null (written {@code allOf: [ref], nullable: true}). */
    public static Schema ref(String component, boolean nullable) {
        Schema ref = FieldSchemas.ref(component);
        return nullable ? FieldSchemas.nullable(ref) : ref;
    }

    /** A JSON response with the given schema. */
    public static APIResponse json(String description, Schema schema) {
        return OASFactory.createAPIResponse()
                .description(description)
                .content(OASFactory.createContent()
                        .addMediaType(
                                "application/json", OASFactory.createMediaType().schema(schema)));
    }

    /** A required JSON request body. */
    public static org.eclipse.microprofile.openapi.models.parameters.RequestBody body(Schema schema) {
        return OASFactory.createRequestBody()
                .required(true)
                .content(OASFactory.createContent()
                        .addMediaType(
                                "application/json", OASFactory.createMediaType().schema(schema)));
    }

    /**
     * A one-object request body; {@code uploads}: a model with an image field, whose files go as
     * multipart/form-data (the same schema, the image a binary string), as NetBox documents it.
     */
    private static org.eclipse.microprofile.openapi.models.parameters.RequestBody body(Schema schema, boolean uploads) {
        var body = body(schema);
        if (uploads) {
            body.getContent()
                    .addMediaType(
                            "multipart/form-data", OASFactory.createMediaType().schema(schema));
        }
        return body;
    }

    private static org.eclipse.microprofile.openapi.models.responses.APIResponses noContent() {
        return OASFactory.createAPIResponses()
                .addAPIResponse("204", OASFactory.createAPIResponse().description("No response body"));
    }
}
