package org.sourceoftruth.records.dcim;

import org.sourceoftruth.records.model.TableName;

/**
 * Tables of the dcim application that other packages name in SQL. Naming them through these
 * constants, rather than as text, makes the dependency a reference the architecture test sees.
 */
public final class DcimTables {
    public static final String DEVICE = TableName.of("dcim_device");
    public static final String INTERFACE = TableName.of("dcim_interface");
    public static final String INTERFACE_TAGGED_VLANS = TableName.of("dcim_interface_tagged_vlans");
    public static final String INTERFACE_WIRELESS_LANS = TableName.of("dcim_interface_wireless_lans");
    public static final String LOCATION = TableName.of("dcim_location");
    public static final String RACK = TableName.of("dcim_rack");
    public static final String REGION = TableName.of("dcim_region");
    public static final String SITE = TableName.of("dcim_site");
    public static final String SITE_ASNS = TableName.of("dcim_site_asns");
    public static final String SITEGROUP = TableName.of("dcim_sitegroup");

    private DcimTables() {}
}
