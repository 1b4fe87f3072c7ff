package org.sourceoftruth.records.fieldtype;

import java.util.List;

/**
 * Kinds stored as text and filtered on it (strings, slugs, choice values): NetBox's string
 * lookups ({@code __ic}, {@code __isw}, {@code __regex}, ...) compare the stored text.
 */
public abstract sealed class TextValuedType implements FieldType permits TextType, ChoiceType {

    @Override
    public List<String> filterLookups() {
        return Lookup.TEXT_FILTERS;
    }

    @Override
    public boolean filtersByValue() {
        return true;
    }

    @Override
    public boolean isText() {
        return true;
    }
}
