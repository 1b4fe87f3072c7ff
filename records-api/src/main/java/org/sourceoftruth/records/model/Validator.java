package org.sourceoftruth.records.model;

import java.util.List;
import java.util.Map;

/** A model-level rule (Django's clean()) checked on the merged row before it is written. */
@FunctionalInterface
public interface Validator {
    /**
     * @param row    the row as it would be written (column values)
     * @param errors add messages under a field name, or under {@code __all__}
     */
    void validate(Row row, Map<String, List<String>> errors);
}
