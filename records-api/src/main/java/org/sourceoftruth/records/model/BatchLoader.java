package org.sourceoftruth.records.model;

import java.util.List;
import java.util.Map;

/**
 * Computes one field for a whole page of rows with a bounded number of queries (e.g. the
 * rendered config context of devices), keyed by row id. Values are plain data (maps, lists,
 * strings, numbers); an {@link ObjectRef} anywhere in them is rendered as that object's nested
 * form, all refs of a page with one query per content type.
 */
@FunctionalInterface
public interface BatchLoader {
    Map<Long, Object> load(Queries db, List<Row> rows);
}
