package org.sourceoftruth.records.ipam;

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
 * {@link AvailabilityResource}'s, {@link AsnAvailabilityResource}'s and
 * {@link VlanGroupAvailabilityResource}'s paths in the OpenAPI document, one per URL as NetBox
 * lists them: prefixes' available-ips and available-prefixes, IP ranges' available-ips, ASN
 * ranges' available-asns, VLAN groups' available-vlans. A POST creates IP
 * addresses or prefixes from request objects without the address or prefix (it is chosen here),
 * optionally with a {@code prefix_length}.
 */
@ApplicationScoped
public class AvailabilityDocumentation implements OpenApiContribution {
    private static final String REFS = "#/components/schemas/";

    @Override
    public void contribute(OpenAPI api) {
        Components components = api.getComponents();
        components.addSchema("AvailableIP", free("address", "An IP address that is free, with the parent's mask"));
        components.addSchema("AvailablePrefix", free("prefix", "A prefix that is free within the parent"));
        components.addSchema(
                "AvailableIPRequest",
                allocation(components.getSchemas().get("WritableIPAddressRequest"), "address", "vrf", false));
        components.addSchema(
                "AvailablePrefixRequest",
                allocation(components.getSchemas().get("WritablePrefixRequest"), "prefix", "vrf", true));
        action(
                api,
                "prefixes",
                "available-ips",
                "IP addresses of this prefix",
                "AvailableIP",
                "AvailableIPRequest",
                "IPAddress");
        action(
                api,
                "prefixes",
                "available-prefixes",
                "child prefixes of this prefix",
                "AvailablePrefix",
                "AvailablePrefixRequest",
                "Prefix");
        action(
                api,
                "ip-ranges",
                "available-ips",
                "IP addresses of this IP range",
                "AvailableIP",
                "AvailableIPRequest",
                "IPAddress");
        components.addSchema(
                "AvailableASN",
                OASFactory.createSchema()
                        .addType(SchemaType.OBJECT)
                        .description("An AS number of the range that no ASN has yet")
                        .addProperty(
                                "asn",
                                OASFactory.createSchema()
                                        .addType(SchemaType.INTEGER)
                                        .format("int64")
                                        .readOnly(true))
                        .addProperty(
                                "rir", OpenApiDocument.ref("BriefRIR", false).readOnly(true))
                        .required(new ArrayList<>(List.of("asn", "rir"))));
        components.addSchema(
                "AvailableASNRequest",
                allocation(components.getSchemas().get("WritableASNRequest"), "asn", "rir", null));
        action(
                api,
                "asn-ranges",
                "available-asns",
                "AS numbers of this ASN range",
                "AvailableASN",
                "AvailableASNRequest",
                "ASN");
        components.addSchema(
                "AvailableVLAN",
                OASFactory.createSchema()
                        .addType(SchemaType.OBJECT)
                        .description("A VLAN ID of the group's ranges that no VLAN of the group has yet")
                        .addProperty(
                                "vid",
                                OASFactory.createSchema()
                                        .addType(SchemaType.INTEGER)
                                        .readOnly(true))
                        .addProperty(
                                "group",
                                OpenApiDocument.ref("BriefVLANGroup", false).readOnly(true))
                        .required(new ArrayList<>(List.of("vid", "group"))));
        Schema vlanRequest = allocation(components.getSchemas().get("WritableVLANRequest"), "vid", "group", null);
        vlanRequest.addRequired("name");
        components.addSchema("AvailableVLANRequest", vlanRequest);
        action(
                api,
                "vlan-groups",
                "available-vlans",
                "VLAN IDs of this VLAN group",
                "AvailableVLAN",
                "AvailableVLANRequest",
                "VLAN");
    }

    private static void action(
            OpenAPI api, String parent, String action, String what, String free, String request, String created) {
        String stem = ("ipam_" + parent + "_" + action).replace('-', '_');
        Parameter id = OASFactory.createParameter()
                .name("id")
                .in(Parameter.In.PATH)
                .required(true)
                .schema(OASFactory.createSchema().addType(SchemaType.INTEGER));
        Operation list = OpenApiDocument.operation(stem + "_list", "ipam", "Get the free " + what + ".")
                .addParameter(id)
                .addParameter(OASFactory.createParameter()
                        .name("limit")
                        .in(Parameter.In.QUERY)
                        .description("How many to list at most.")
                        .schema(OASFactory.createSchema().addType(SchemaType.INTEGER)))
                .responses(
                        OASFactory.createAPIResponses().addAPIResponse("200", OpenApiDocument.json("", array(free))));
        Operation create = OpenApiDocument.operation(
                        stem + "_create",
                        "ipam",
                        "Create " + what + " in the first free space, one per request object"
                                + " (409 when there is not enough room).")
                .addParameter(id)
                .requestBody(OpenApiDocument.body(array(request)))
                .responses(OASFactory.createAPIResponses()
                        .addAPIResponse("201", OpenApiDocument.json("", array(created))));
        api.getPaths()
                .addPathItem(
                        "/api/ipam/" + parent + "/{id}/" + action + "/",
                        OASFactory.createPathItem().GET(list).POST(create));
    }

    private static Schema free(String key, String description) {
        return OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .description(description)
                .addProperty(
                        "family",
                        OASFactory.createSchema().addType(SchemaType.INTEGER).readOnly(true))
                .addProperty(
                        key,
                        OASFactory.createSchema().addType(SchemaType.STRING).readOnly(true))
                .addProperty("vrf", OpenApiDocument.ref("BriefVRF", true).readOnly(true))
                .required(new ArrayList<>(List.of("family", key, "vrf")));
    }

    /**
     * The object's request without the key chosen here and the field taken from the parent (the
     * VRF, the RIR), plus {@code prefix_length} where sizes are asked for (required or not; null:
     * no such property).
     */
    private static Schema allocation(Schema request, String chosen, String fromParent, Boolean prefixLength) {
        Schema out = OASFactory.createSchema().addType(SchemaType.OBJECT);
        if (prefixLength != null) {
            out.addProperty("prefix_length", OASFactory.createSchema().addType(SchemaType.INTEGER));
        }
        if (request != null && request.getProperties() != null) {
            for (Map.Entry<String, Schema> p : request.getProperties().entrySet()) {
                if (!p.getKey().equals(chosen) && !p.getKey().equals(fromParent)) {
                    out.addProperty(p.getKey(), p.getValue());
                }
            }
        }
        if (Boolean.TRUE.equals(prefixLength)) {
            out.addRequired("prefix_length");
        }
        return out;
    }

    private static Schema array(String component) {
        return OASFactory.createSchema()
                .addType(SchemaType.ARRAY)
                .items(OASFactory.createSchema().ref(REFS + component));
    }
}
