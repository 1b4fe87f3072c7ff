package org.sourceoftruth.records.fieldtype;

import java.util.List;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;

/**
 * What a relation's list filters need from the engine: the related objects looked up (a key
 * that names none is a 400), tree targets matching their descendants. Handed to
 * {@link FieldFilter}s so that field kinds do not depend on the engine.
 */
public interface RelationLookups {
    /** The objects whose relation points at targets with the given slugs (or names); null when the target has neither. */
    ExtraFilter.Sql byKey(Db db, Field relation, String lookup, List<String> values);

    /** The objects whose relation points at targets with the given ids. */
    ExtraFilter.Sql byId(Db db, Field relation, String lookup, List<String> values);
}
