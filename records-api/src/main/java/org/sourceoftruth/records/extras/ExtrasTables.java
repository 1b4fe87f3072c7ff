package org.sourceoftruth.records.extras;

import org.sourceoftruth.records.model.TableName;

/**
 * Tables of the extras application that other packages name in SQL. Naming them through these
 * constants, rather than as text, makes the dependency a reference the architecture test sees.
 */
public final class ExtrasTables {
    public static final String NOTIFICATIONGROUP = TableName.of("extras_notificationgroup");
    public static final String NOTIFICATIONGROUP_GROUPS = TableName.of("extras_notificationgroup_groups");
    public static final String NOTIFICATIONGROUP_USERS = TableName.of("extras_notificationgroup_users");

    private ExtrasTables() {}
}
