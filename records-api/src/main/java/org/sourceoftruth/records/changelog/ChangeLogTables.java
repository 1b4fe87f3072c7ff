package org.sourceoftruth.records.changelog;

import org.sourceoftruth.records.model.TableName;

/**
 * The change log's table, which is also the outbox: written and relayed here, served as
 * core.objectchange by the core application's declaration.
 */
public final class ChangeLogTables {
    public static final String OBJECTCHANGE = TableName.of("core_objectchange");

    private ChangeLogTables() {}
}
