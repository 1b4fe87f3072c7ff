package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.JsonBody;

/**
 * {@code GET|POST /api/ipam/vlan-groups/<id>/available-vlans/}: the free VLAN IDs of a VLAN
 * group (not paginated, at most {@code limit}), and VLANs created in the group at the next free
 * ones (201), or 409 when the group has too few left.
 */
@Path("/api/ipam/vlan-groups/{id: [0-9]+}/available-vlans/")
public class VlanGroupAvailabilityResource {
    @Inject
    VlanGroupAvailability availability;
    @Context
    HttpHeaders headers;
    @Inject
    ModelRegistry registry;
    @Inject
    Access access;
    @Inject
    ApiConfig config;

    @GET
    @Operation(hidden = true) // described by AvailabilityDocumentation
    public Response get(@PathParam("id") long id, @QueryParam("limit") String limit) {
        access.require(registry.require("ipam.vlangroup"), Access.Action.VIEW);
        access.require(registry.require("ipam.vlan"), Access.Action.VIEW);
        return AvailabilityResource.list(availability.available(id, AvailabilityResource.resultsLimit(config, limit)),
                headers);
    }

    @POST
    @Operation(hidden = true)
    public Response post(@PathParam("id") long id, String body) {
        access.require(registry.require("ipam.vlan"), Access.Action.ADD);
        JsonNode json = JsonBody.parse(body);
        return AvailabilityResource.created(availability.allocate(id, AvailabilityResource.items(json), json.isArray()),
                json.isArray(), headers);
    }
}
