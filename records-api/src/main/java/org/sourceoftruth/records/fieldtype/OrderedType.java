package org.sourceoftruth.records.fieldtype;

import java.util.List;

/**
 * Kinds whose values have an order (integers, decimals, dates, instants): NetBox's number
 * lookups ({@code __lt}, {@code __lte}, {@code __gt}, {@code __gte}, {@code __n}, {@code __empty})
 * compare the parsed value.
 */
public abstract sealed class OrderedType implements FieldType permits IntegerType, DecimalType, DateType, DateTimeType {

    @Override
    public List<String> filterLookups() {
        return Lookup.NUMBER_FILTERS;
    }

    @Override
    public boolean filtersByValue() {
        return true;
    }
}
