package org.sourceoftruth.records.virtualization;

import org.sourceoftruth.records.model.TableName;

/**
 * Tables of the virtualization application that other packages name in SQL. Naming them through
 * these constants, rather than as text, makes the dependency a reference the architecture test
 * sees.
 */
public final class VirtualizationTables {
    public static final String CLUSTER = TableName.of("virtualization_cluster");
    public static final String VIRTUALMACHINE = TableName.of("virtualization_virtualmachine");
    public static final String VMINTERFACE = TableName.of("virtualization_vminterface");
    public static final String VMINTERFACE_TAGGED_VLANS = TableName.of("virtualization_vminterface_tagged_vlans");

    private VirtualizationTables() {}
}
