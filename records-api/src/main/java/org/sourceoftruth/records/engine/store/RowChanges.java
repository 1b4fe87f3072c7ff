package org.sourceoftruth.records.engine.store;

import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Row;

/** What a request wants written: column values; {@code tags}/{@code m2m} entries only when sent. */
public record RowChanges(Row columns, Map<Field, List<Long>> m2m, List<Long> tags) {}
