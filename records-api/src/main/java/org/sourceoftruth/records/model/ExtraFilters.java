package org.sourceoftruth.records.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * Ready-made {@link ExtraFilter}s from SQL templates, for declarations that filter on an
 * expression rather than a column. In a template, {@code {t}} is the model's table alias and
 * every {@code ?} receives the (converted) filter value.
 */
public final class ExtraFilters {
    private ExtraFilters() {}

    /** One template per value, ORed across repeated values. */
    public static ExtraFilter each(String name, Kind kind, String template, Function<Object, Object> convert) {
        int slots = placeholders(template);
        return new ExtraFilter(name, kind, (alias, values) -> {
            List<String> parts = new ArrayList<>();
            List<Object> params = new ArrayList<>();
            for (Object v : values) {
                parts.add("(" + template.replace("{t}", alias) + ")");
                params.addAll(Collections.nCopies(slots, convert.apply(v)));
            }
            return new ExtraFilter.Sql(String.join(" or ", parts), params);
        });
    }

    public static ExtraFilter each(String name, Kind kind, String template) {
        return each(name, kind, template, v -> v);
    }

    /**
     * A filter of one value (django-filter's CharFilter, NumberFilter): repeated, the last value
     * counts, as Django's QueryDict.get() gives it to the form.
     */
    public static ExtraFilter single(String name, Kind kind, String template) {
        ExtraFilter each = each(name, kind, template);
        return new ExtraFilter(
                name, kind, (alias, values) -> each.predicate().build(alias, List.of(values.get(values.size() - 1))));
    }

    /** A boolean filter: the last value picks {@code whenTrue} or {@code whenFalse} (no parameters). */
    public static ExtraFilter bool(String name, String whenTrue, String whenFalse) {
        return new ExtraFilter(
                name,
                Kind.BOOLEAN,
                (alias, values) ->
                        ExtraFilter.Sql.of((Boolean.TRUE.equals(values.get(values.size() - 1)) ? whenTrue : whenFalse)
                                .replace("{t}", alias)));
    }

    /**
     * NetBox's number filter on an SQL integer expression: {@code name} (ORed values),
     * {@code name__n} (none of them), {@code __lt}, {@code __lte}, {@code __gt}, {@code __gte},
     * {@code __empty} (NetBox maps it to isnull for numbers).
     */
    public static List<ExtraFilter> number(String name, String expression) {
        List<ExtraFilter> out = new ArrayList<>();
        out.add(each(name, Kind.INTEGER, expression + " = ?"));
        ExtraFilter equal = out.get(0);
        out.add(new ExtraFilter(name + "__n", Kind.INTEGER, (alias, values) -> {
            ExtraFilter.Sql any = equal.predicate().build(alias, values);
            return new ExtraFilter.Sql("coalesce(not (" + any.sql() + "), true)", any.params());
        }));
        String[][] ops = {{"lt", "<"}, {"lte", "<="}, {"gt", ">"}, {"gte", ">="}};
        for (String[] op : ops) {
            out.add(each(name + "__" + op[0], Kind.INTEGER, expression + " " + op[1] + " ?"));
        }
        out.add(bool(name + "__empty", expression + " is null", expression + " is not null"));
        return out;
    }

    /**
     * Filters of a related table applied through a subquery: each inner filter is built over
     * {@code innerAlias} and its condition replaces {@code {where}} in {@code template}, e.g.
     * {@code "{t}.id in (select x.circuit_id from circuits_circuittermination x where {where})"}.
     */
    public static List<ExtraFilter> via(List<ExtraFilter> inner, String innerAlias, String template) {
        List<ExtraFilter> out = new ArrayList<>();
        for (ExtraFilter f : inner) {
            // the inner filter's choices stay: its values name the same rows through the subquery
            out.add(new ExtraFilter(
                    f.name(),
                    f.valueKind(),
                    (alias, values) -> {
                        ExtraFilter.Sql where = f.predicate().build(innerAlias, values);
                        return new ExtraFilter.Sql(
                                template.replace("{t}", alias).replace("{where}", where.sql()), where.params());
                    },
                    f.choices()));
        }
        return out;
    }

    private static int placeholders(String template) {
        int n = 0;
        for (char c : template.toCharArray()) {
            if (c == '?') {
                n++;
            }
        }
        return n;
    }
}
