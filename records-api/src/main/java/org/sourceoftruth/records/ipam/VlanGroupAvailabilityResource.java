package org.sourceoftruth.records.ipam;

import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

/** {@code /api/ipam/vlan-groups/<id>/available-vlans/}: the free VIDs of a VLAN group and VLANs made in it. */
@Path("/api/ipam/vlan-groups/{id: [0-9]+}/available-vlans/")
public class VlanGroupAvailabilityResource extends NumberPoolResource {
    @Inject
    VlanGroupAvailability availability;

    @Override
    NumberPool pool() {
        return availability;
    }
}
