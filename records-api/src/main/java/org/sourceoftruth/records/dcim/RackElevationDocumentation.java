package org.sourceoftruth.records.dcim;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.sourceoftruth.records.api.openapi.OpenApiContribution;
import org.sourceoftruth.records.api.openapi.OpenApiDocument;

/** {@link RackElevation}'s path in the OpenAPI document, as NetBox's dcim_racks_elevation_list. */
@ApplicationScoped
public class RackElevationDocumentation implements OpenApiContribution {

    @Override
    public void contribute(OpenAPI api) {
        Schema unit = OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .description("A rack unit of one face")
                .addProperty(
                        "id",
                        OASFactory.createSchema().addType(SchemaType.NUMBER).readOnly(true))
                .addProperty(
                        "name",
                        OASFactory.createSchema().addType(SchemaType.STRING).readOnly(true))
                .addProperty(
                        "face",
                        OASFactory.createSchema()
                                .addType(SchemaType.OBJECT)
                                .readOnly(true)
                                .addProperty(
                                        "value",
                                        OASFactory.createSchema()
                                                .addType(SchemaType.STRING)
                                                .enumeration(new ArrayList<>(List.of("front", "rear"))))
                                .addProperty("label", OASFactory.createSchema().addType(SchemaType.STRING)))
                .addProperty("device", OpenApiDocument.ref("BriefDevice", true).readOnly(true))
                .addProperty(
                        "occupied",
                        OASFactory.createSchema().addType(SchemaType.BOOLEAN).readOnly(true))
                .addProperty(
                        "display",
                        OASFactory.createSchema().addType(SchemaType.STRING).readOnly(true))
                .required(new ArrayList<>(List.of("device", "display", "face", "id", "name", "occupied")));
        api.getComponents().addSchema("RackUnit", unit);
        Schema page = OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .addProperty("count", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty("next", OASFactory.createSchema().addType(SchemaType.STRING))
                .addProperty("previous", OASFactory.createSchema().addType(SchemaType.STRING))
                .addProperty(
                        "results",
                        OASFactory.createSchema()
                                .addType(SchemaType.ARRAY)
                                .items(OpenApiDocument.ref("RackUnit", false)))
                .required(new ArrayList<>(List.of("count", "results")));
        api.getComponents().addSchema("PaginatedRackUnitList", page);

        Operation get = OpenApiDocument.operation(
                        "dcim_racks_elevation_list",
                        "dcim",
                        "Rack elevation: the units of one face with their devices (JSON), or an SVG drawing of it.")
                .addParameter(OASFactory.createParameter()
                        .name("id")
                        .in(Parameter.In.PATH)
                        .required(true)
                        .schema(OASFactory.createSchema().addType(SchemaType.INTEGER)));
        query(get, "face", SchemaType.STRING, List.of("front", "rear"), "Rack face (default front)");
        query(get, "render", SchemaType.STRING, List.of("json", "svg"), "json (default) or svg");
        query(get, "exclude", SchemaType.INTEGER, null, "A device to leave out");
        query(get, "expand_devices", SchemaType.BOOLEAN, null, "List a device in every unit it takes (default true)");
        query(get, "include_images", SchemaType.BOOLEAN, null, "Embed device images in the SVG (default true)");
        query(get, "q", SchemaType.STRING, null, "Units whose number contains this text");
        for (String n : List.of("unit_width", "unit_height", "legend_width", "margin_width", "limit", "offset")) {
            query(get, n, SchemaType.INTEGER, null, null);
        }
        Content content = OASFactory.createContent()
                .addMediaType(
                        "application/json",
                        OASFactory.createMediaType().schema(OpenApiDocument.ref("PaginatedRackUnitList", false)))
                .addMediaType(
                        "image/svg+xml",
                        OASFactory.createMediaType()
                                .schema(OASFactory.createSchema().addType(SchemaType.STRING)));
        get.responses(OASFactory.createAPIResponses()
                .addAPIResponse(
                        "200", OASFactory.createAPIResponse().description("").content(content)));
        api.getPaths()
                .addPathItem(
                        "/api/dcim/racks/{id}/elevation/",
                        OASFactory.createPathItem().GET(get));
    }

    private static void query(Operation op, String name, SchemaType type, List<String> choices, String description) {
        Schema s = OASFactory.createSchema().addType(type);
        if (choices != null) {
            s.enumeration(new ArrayList<>(choices));
        }
        op.addParameter(OASFactory.createParameter()
                .name(name)
                .in(Parameter.In.QUERY)
                .description(description)
                .schema(s));
    }
}
