package org.sourceoftruth.records.model;

import java.util.List;
import java.util.Map;

/**
 * A model rule that must look at other rows (NetBox clean() methods that query), checked on the
 * merged row before it is written, in the write's transaction.
 */
@FunctionalInterface
public interface DbValidator {
    /**
     * @param db     queries on the request's connection
     * @param row    the row as it would be written (column values; inet values print as text)
     * @param selfId the id of the row being updated, null on create
     * @param errors add messages under a field name, or under {@code __all__}
     */
    void validate(Queries db, Row row, Long selfId, Map<String, List<String>> errors);
}
