package org.sourceoftruth.records.dcim;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.sourceoftruth.records.api.openapi.OpenApiContribution;
import org.sourceoftruth.records.api.openapi.OpenApiDocument;

/**
 * {@link CableTraceResource}'s and {@link ConnectedDeviceResource}'s paths in the OpenAPI document,
 * with NetBox's operation ids ({@code dcim_interfaces_trace_retrieve},
 * {@code dcim_front_ports_paths_retrieve}, {@code dcim_connected_device_list}). The response
 * schemas say what is answered, where NetBox's document names the port's own serializer (trace,
 * paths) or a list of devices (connected-device answers one device):
 * <ul>
 * <li>trace: a list of segments, each {@code [near ends, link, far ends]}: the ends are lists of
 *     nested objects, the link a {@code TracedCable} or {@code []} when there is none;</li>
 * <li>paths: a list of {@code CablePath} (steps of nested objects, is_active/complete/split);</li>
 * <li>connected-device: a {@code Device} (the device's representation without config_context).</li>
 * </ul>
 */
@ApplicationScoped
public class CableTraceDocumentation implements OpenApiContribution {
    private static final Map<String, String> TRACED = Map.of(
            "interfaces",
            "Interface",
            "console-ports",
            "ConsolePort",
            "console-server-ports",
            "ConsoleServerPort",
            "power-ports",
            "PowerPort",
            "power-outlets",
            "PowerOutlet",
            "power-feeds",
            "PowerFeed");
    private static final Map<String, String> PASS_THROUGH = Map.of(
            "dcim/front-ports",
            "FrontPort",
            "dcim/rear-ports",
            "RearPort",
            "circuits/circuit-terminations",
            "CircuitTermination");

    @Override
    public void contribute(OpenAPI api) {
        Components components = api.getComponents();
        components.addSchema("TracedCable", tracedCable());
        components.addSchema(
                "CableTraceSegment",
                OASFactory.createSchema()
                        .addType(SchemaType.ARRAY)
                        .description("[near ends, link, far ends]: lists of nested objects around a TracedCable"
                                + " (or [] where there is no link)")
                        .minItems(3)
                        .maxItems(3)
                        .items(OASFactory.createSchema()));
        components.addSchema("CablePath", cablePath());
        Schema device = withoutConfigContext(components.getSchemas().get("DeviceWithConfigContext"));
        if (device != null) {
            components.addSchema("Device", device);
        }

        for (Map.Entry<String, String> e : new java.util.TreeMap<>(TRACED).entrySet()) {
            String stem = "dcim_" + e.getKey().replace('-', '_');
            Operation get = OpenApiDocument.operation(
                            stem + "_trace_retrieve",
                            "dcim",
                            "Trace the cable path from this " + e.getValue()
                                    + ": each segment as [near ends, cable, far"
                                    + " ends], continued across an interface bridge at the far end.")
                    .addParameter(id())
                    .responses(OASFactory.createAPIResponses()
                            .addAPIResponse(
                                    "200",
                                    OpenApiDocument.json(
                                            "",
                                            OASFactory.createSchema()
                                                    .addType(SchemaType.ARRAY)
                                                    .items(OpenApiDocument.ref("CableTraceSegment", false)))));
            api.getPaths()
                    .addPathItem(
                            "/api/dcim/" + e.getKey() + "/{id}/trace/",
                            OASFactory.createPathItem().GET(get));
        }
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(PASS_THROUGH).entrySet()) {
            String app = e.getKey().substring(0, e.getKey().indexOf('/'));
            String stem = e.getKey().replace('/', '_').replace('-', '_');
            Operation get = OpenApiDocument.operation(
                            stem + "_paths_retrieve",
                            app,
                            "The cable paths that pass through this " + e.getValue() + ".")
                    .addParameter(id())
                    .responses(OASFactory.createAPIResponses()
                            .addAPIResponse(
                                    "200",
                                    OpenApiDocument.json(
                                            "",
                                            OASFactory.createSchema()
                                                    .addType(SchemaType.ARRAY)
                                                    .items(OpenApiDocument.ref("CablePath", false)))));
            api.getPaths()
                    .addPathItem(
                            "/api/" + e.getKey() + "/{id}/paths/",
                            OASFactory.createPathItem().GET(get));
        }

        Operation connected = OpenApiDocument.operation(
                        "dcim_connected_device_list",
                        "dcim",
                        "The device at the far end of the cable path from a device's interface, both given by name"
                                + " (404 when the path reaches no interface).")
                .addParameter(OASFactory.createParameter()
                        .name("peer_device")
                        .in(Parameter.In.QUERY)
                        .required(true)
                        .description("The name of the peer device")
                        .schema(OASFactory.createSchema().addType(SchemaType.STRING)))
                .addParameter(OASFactory.createParameter()
                        .name("peer_interface")
                        .in(Parameter.In.QUERY)
                        .required(true)
                        .description("The name of the peer interface")
                        .schema(OASFactory.createSchema().addType(SchemaType.STRING)))
                .responses(OASFactory.createAPIResponses()
                        .addAPIResponse(
                                "200",
                                OpenApiDocument.json(
                                        "",
                                        OpenApiDocument.ref(
                                                device != null ? "Device" : "DeviceWithConfigContext", false))));
        api.getPaths()
                .addPathItem(
                        "/api/dcim/connected-device/",
                        OASFactory.createPathItem().GET(connected));
    }

    private static Parameter id() {
        return OASFactory.createParameter()
                .name("id")
                .in(Parameter.In.PATH)
                .required(true)
                .schema(OASFactory.createSchema().addType(SchemaType.INTEGER));
    }

    /** NetBox's TracedCableSerializer. */
    private static Schema tracedCable() {
        return OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .description("A cable (or wireless link) as a trace shows it")
                .addProperty(
                        "id",
                        OASFactory.createSchema().addType(SchemaType.INTEGER).readOnly(true))
                .addProperty(
                        "url",
                        OASFactory.createSchema()
                                .addType(SchemaType.STRING)
                                .format("uri")
                                .readOnly(true))
                .addProperty("type", string(true))
                .addProperty("status", string(false))
                .addProperty("label", string(false))
                .addProperty("color", string(false))
                .addProperty(
                        "length",
                        OASFactory.createSchema()
                                .addType(SchemaType.NUMBER)
                                .format("double")
                                .addType(SchemaType.NULL)
                                .readOnly(true))
                .addProperty("length_unit", string(true))
                .addProperty("description", string(false))
                .required(new ArrayList<>(List.of("id", "url")));
    }

    /** NetBox's CablePathSerializer. */
    private static Schema cablePath() {
        return OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .description("A traced cable path: steps of nested objects (terminations, links, terminations, ...)")
                .addProperty(
                        "id",
                        OASFactory.createSchema().addType(SchemaType.INTEGER).readOnly(true))
                .addProperty(
                        "path",
                        OASFactory.createSchema()
                                .addType(SchemaType.ARRAY)
                                .readOnly(true)
                                .items(OASFactory.createSchema()
                                        .addType(SchemaType.ARRAY)
                                        .items(OASFactory.createSchema().addType(SchemaType.OBJECT))))
                .addProperty(
                        "is_active",
                        OASFactory.createSchema().addType(SchemaType.BOOLEAN).readOnly(true))
                .addProperty(
                        "is_complete",
                        OASFactory.createSchema().addType(SchemaType.BOOLEAN).readOnly(true))
                .addProperty(
                        "is_split",
                        OASFactory.createSchema().addType(SchemaType.BOOLEAN).readOnly(true))
                .required(new ArrayList<>(List.of("id", "path", "is_active", "is_complete", "is_split")));
    }

    private static Schema string(boolean nullable) {
        Schema s = OASFactory.createSchema().addType(SchemaType.STRING).readOnly(true);
        return nullable ? s.addType(SchemaType.NULL) : s;
    }

    /** NetBox's DeviceSerializer: DeviceWithConfigContext without config_context. */
    private static Schema withoutConfigContext(Schema full) {
        if (full == null || full.getProperties() == null) {
            return null;
        }
        Schema out = OASFactory.createSchema().addType(SchemaType.OBJECT).description(full.getDescription());
        full.getProperties().forEach((name, schema) -> {
            if (!name.equals("config_context")) {
                out.addProperty(name, schema);
            }
        });
        if (full.getRequired() != null) {
            out.required(new ArrayList<>(full.getRequired().stream()
                    .filter(r -> !r.equals("config_context"))
                    .toList()));
        }
        return out;
    }
}
