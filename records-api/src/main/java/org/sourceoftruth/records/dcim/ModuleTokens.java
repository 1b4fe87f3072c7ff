package org.sourceoftruth.records.dcim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * NetBox's {@code {module}} placeholder in the names, labels and positions of a module type's
 * component templates: replaced, when the module is installed, by the position of its module
 * bay; with one token per level of nested bays, by each level's position, outermost first
 * (dcim.utils.resolve_module_placeholder).
 */
final class ModuleTokens {
    static final String TOKEN = "{module}";

    private ModuleTokens() {}

    /** The resolver for the components of the module {@code module} (its row as written). */
    static UnaryOperator<String> names(Queries db, Row module) {
        List<String> positions = positions(db, module.longValue("module_bay_id"));
        return value -> resolve(value, positions);
    }

    /**
     * The positions of the bay and of the bays holding the modules above it, outermost first; a
     * position holding the token itself takes the one of the level above (position inheritance).
     */
    static List<String> positions(Queries db, long bayId) {
        List<Row> chain = db.query(
                "with recursive chain(id, position, module_id, depth) as ("
                        + " select b.id, b.position, b.module_id, 0 from dcim_modulebay b where b.id = ?"
                        + " union all select b.id, b.position, b.module_id, c.depth + 1 from chain c"
                        + " join dcim_module m on m.id = c.module_id join dcim_modulebay b on b.id = m.module_bay_id"
                        + " where c.depth < 64)"
                        + " select position from chain order by depth desc",
                bayId);
        List<String> positions = new ArrayList<>();
        for (Row r : chain) {
            String position = r.str("position") == null ? "" : r.str("position");
            if (!positions.isEmpty() && position.contains(TOKEN)) {
                position = position.replace(TOKEN, positions.get(positions.size() - 1));
            }
            positions.add(position);
        }
        return positions;
    }

    /** resolve_module_placeholder, with the serializer's check of a bay without a position. */
    static String resolve(String value, List<String> positions) {
        if (value == null || !value.contains(TOKEN)) {
            return value;
        }
        if (positions.isEmpty() || positions.get(positions.size() - 1).isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot install module with placeholder values in a module bay with no position defined.");
        }
        int tokens = (value.length() - value.replace(TOKEN, "").length()) / TOKEN.length();
        if (tokens == 1) {
            return value.replace(TOKEN, positions.get(positions.size() - 1));
        }
        if (tokens == positions.size()) {
            String out = value;
            for (String position : positions) {
                out = out.replaceFirst(
                        java.util.regex.Pattern.quote(TOKEN), java.util.regex.Matcher.quoteReplacement(position));
            }
            return out;
        }
        throw new IllegalArgumentException("Cannot install module with placeholder values in a module bay tree "
                + positions.size() + " levels deep but " + tokens + " placeholders given.");
    }
}
