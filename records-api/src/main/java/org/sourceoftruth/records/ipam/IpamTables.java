package org.sourceoftruth.records.ipam;

import org.sourceoftruth.records.model.TableName;

/**
 * Tables of the ipam application that other packages name in SQL. Naming them through these
 * constants, rather than as text, makes the dependency a reference the architecture test sees.
 */
public final class IpamTables {
    public static final String VLAN = TableName.of("ipam_vlan");

    private IpamTables() {}
}
