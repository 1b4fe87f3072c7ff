package org.sourceoftruth.records.ipam;

import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

/** {@code /api/ipam/asn-ranges/<id>/available-asns/}: the free numbers of an ASN range and ASNs made at them. */
@Path("/api/ipam/asn-ranges/{id: [0-9]+}/available-asns/")
public class AsnAvailabilityResource extends NumberPoolResource {
    @Inject
    AsnAvailability availability;

    @Override
    NumberPool pool() {
        return availability;
    }
}
