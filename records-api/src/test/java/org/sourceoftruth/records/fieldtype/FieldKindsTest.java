package org.sourceoftruth.records.fieldtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.auth.ConstraintCompiler;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.query.FilterCatalog;
import org.sourceoftruth.records.engine.query.FilterCompiler;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * Field kinds are types: every kind has one, and the one lookup compiler serves list
 * filters and permission constraints alike, with the same value spellings: each lookup the
 * filter catalog documents for a column is accepted as a filter, and as a permission constraint
 * (under Django's name) it binds the very same values.
 */
@QuarkusTest
class FieldKindsTest {
    @Inject
    ModelRegistry registry;

    @Inject
    FilterCatalog catalog;

    @Inject
    FilterCompiler filters;

    @Inject
    ConstraintCompiler constraints;

    @Inject
    DataSource dataSource;

    @Test
    void everyKindHasItsTypeAndEveryTypeServesAKind() {
        Set<Class<?>> used = new HashSet<>();
        for (Kind kind : Kind.values()) {
            FieldType type = FieldTypes.of(kind);
            assertNotNull(type, kind.name());
            used.add(type.getClass());
        }
        assertEquals(concreteTypes(FieldType.class), used);
    }

    /** The final classes of the sealed hierarchy (shared bases such as OrderedType are walked through). */
    private static Set<Class<?>> concreteTypes(Class<?> sealed) {
        Set<Class<?>> out = new HashSet<>();
        for (Class<?> sub : sealed.getPermittedSubclasses()) {
            if (sub.isSealed()) {
                out.addAll(concreteTypes(sub));
            } else {
                out.add(sub);
            }
        }
        return out;
    }

    @Test
    void documentedLookupsCompileAsFiltersAndAsConstraintsWithTheSameValues() throws SQLException {
        int compared = 0;
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            for (Model model : registry.all()) {
                Set<String> documented = new HashSet<>();
                catalog.parameters(model).forEach(p -> documented.add(p.name()));
                for (Field f : model.fields()) {
                    FieldType type = FieldTypes.of(f);
                    if (!f.isColumn()
                            || !f.isFilterable()
                            || !type.filtersByValue()
                            || f.hasObjectTypeIds()
                            || f.unsetFilterKind() != null
                            || model.extraFilters().containsKey(f.name)
                            || model.relationFilters().containsKey(f.name)
                            || model.childFilters().containsKey(f.name)) {
                        continue;
                    }
                    for (String suffix : type.filterLookups()) {
                        String param = f.name + "__" + suffix;
                        if (!documented.contains(param) || model.extraFilters().containsKey(param)) {
                            continue;
                        }
                        String value = sample(f, suffix);
                        FilterCompiler.Where where = filters.compile(db, model, Map.of(param, List.of(value)));
                        assertTrue(where.sql().contains("?") || suffix.equals("empty"), param + ": " + where.sql());
                        Lookup.Filter lookup = Lookup.Filter.of(suffix);
                        if (lookup.lookup() == Lookup.EMPTY) {
                            continue; // NetBox's own lookup; constraints say isnull
                        }
                        ObjectNode constraint = JsonNodeFactory.instance
                                .objectNode()
                                .put(f.name + "__" + lookup.lookup().djangoName(), value);
                        ExtraFilter.Sql sql = constraints.compile(model, constraint, 1);
                        assertEquals(
                                where.params(), sql.params(), model.contentType() + " " + param + " vs " + constraint);
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 100, "lookups compared: " + compared);
    }

    /** A value of the field's kind, spelled as a client may (booleans as "yes", numbers as text). */
    private static String sample(Field f, String suffix) {
        if (suffix.equals("empty")) {
            return "true";
        }
        if (suffix.contains("regex")) {
            return "^a.*";
        }
        return switch (f.kind) {
            case INTEGER ->
                f.choices() != null ? f.choices().values().get(0) : "7"; // an integer with choices: one of them
            case DECIMAL -> "1.50";
            case BOOLEAN -> "yes";
            case DATE -> "2024-02-03";
            case DATETIME -> "2024-02-03 04:05:06";
            case INET -> "10.0.0.1/24";
            case CIDR -> "10.0.0.0/24";
            case CHOICE -> f.choices().values().get(0);
            default -> f.choices() != null ? f.choices().values().get(0) : "a_b%";
        };
    }

    @Test
    void filterLookupSuffixesNameTheirComparison() {
        assertEquals(new Lookup.Filter(Lookup.ICONTAINS, true), Lookup.Filter.of("nic"));
        assertEquals(new Lookup.Filter(Lookup.EXACT, true), Lookup.Filter.of("n"));
        assertEquals(Lookup.Filter.EXACT_MATCH, Lookup.Filter.of(null));
        for (String suffix : Arrays.asList("ie", "isw", "iew", "regex", "iregex", "lt", "lte", "gt", "gte", "empty")) {
            assertEquals(suffix, Lookup.Filter.of(suffix).lookup().filterSuffix);
        }
        assertEquals(null, Lookup.django("empty"));
        assertEquals(Lookup.ISTARTSWITH, Lookup.django("istartswith"));
    }
}
