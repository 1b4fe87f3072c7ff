package org.sourceoftruth.records.fieldtype;

import java.util.List;
import java.util.Locale;

/**
 * The comparisons a column lookup makes, named as Django spells them in permission constraints
 * ({@code name__icontains}) and, where NetBox's filtersets offer them, as its filter suffixes
 * ({@code name__ic}; {@code n} and {@code n<suffix>} negate). {@link LookupCompiler} turns one
 * into SQL for both.
 */
public enum Lookup {
    EXACT(null),
    IEXACT("ie"),
    CONTAINS(null),
    ICONTAINS("ic"),
    STARTSWITH(null),
    ISTARTSWITH("isw"),
    ENDSWITH(null),
    IENDSWITH("iew"),
    REGEX("regex"),
    IREGEX("iregex"),
    LT("lt"),
    LTE("lte"),
    GT("gt"),
    GTE("gte"),
    IN(null),
    ISNULL(null),
    /** NetBox's {@code __empty}: null, or for text also the empty string. */
    EMPTY("empty");

    /** NetBox's filter lookups on text (string, slug, choice) columns, as the filtersets list them. */
    public static final List<String> TEXT_FILTERS =
            List.of("n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "empty", "regex", "iregex");
    /** NetBox's filter lookups on number, date and time columns. */
    public static final List<String> NUMBER_FILTERS = List.of("n", "lt", "lte", "gt", "gte", "empty");
    /** NetBox's filter lookups on address and prefix columns. */
    public static final List<String> NEGATION_ONLY = List.of("n");

    /** The suffix of NetBox's list filters, or null when filters do not offer it. */
    public final String filterSuffix;

    Lookup(String filterSuffix) {
        this.filterSuffix = filterSuffix;
    }

    /** Django's name ({@code icontains}). */
    public String djangoName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The lookup Django names {@code name} (as permission constraints spell it), or null. */
    public static Lookup django(String name) {
        for (Lookup l : values()) {
            if (l != EMPTY && l.djangoName().equals(name)) {
                return l;
            }
        }
        return null;
    }

    /** A list-filter lookup: the comparison and whether it is negated ({@code n}, {@code nic}, ...). */
    public record Filter(Lookup lookup, boolean negated) {
        /** The plain filter, {@code name=value}. */
        public static final Filter EXACT_MATCH = new Filter(EXACT, false);

        /** The lookup a filter suffix names ({@code ic}, {@code n}, {@code nisw}), or null when it names none. */
        public static Filter of(String suffix) {
            if (suffix == null) {
                return EXACT_MATCH;
            }
            if (suffix.equals("n")) {
                return new Filter(EXACT, true);
            }
            for (Lookup l : values()) {
                if (suffix.equals(l.filterSuffix)) {
                    return new Filter(l, false);
                }
            }
            if (suffix.startsWith("n") && TEXT_FILTERS.contains(suffix)) {
                Filter positive = of(suffix.substring(1));
                return positive == null ? null : new Filter(positive.lookup, true);
            }
            return null;
        }
    }
}
