package org.sourceoftruth.records.engine.query;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/** A list's ORDER BY from {@code ?ordering=a,-b}, or the model's default ordering. */
@ApplicationScoped
public class ListOrdering {
    @Inject
    ModelRegistry registry;

    /** Unknown terms are ignored as NetBox does; id breaks ties. */
    public String orderBy(Model model, List<String> requested) {
        List<String> terms = new ArrayList<>();
        if (requested != null) {
            for (String spec : requested) {
                for (String raw : spec.split(",")) {
                    String name = raw.trim();
                    boolean desc = name.startsWith("-");
                    if (desc) {
                        name = name.substring(1);
                    }
                    String expr = orderExpression(model, name);
                    if (expr != null) {
                        terms.add(expr + (desc ? " desc nulls last" : " asc nulls first"));
                    }
                }
            }
        }
        if (terms.isEmpty()) {
            terms.addAll(model.ordering());
        }
        terms.add("t.id");
        return String.join(", ", terms);
    }

    private String orderExpression(Model model, String name) {
        Field f = model.field(name);
        if (f == null || !f.isOrderable() || f.isWriteOnly()) {
            return null;
        }
        return switch (f.kind) {
            case FK -> {
                Model target = registry.require(f.target());
                String first =
                        target.ordering().isEmpty() ? "t.id" : target.ordering().get(0);
                first = first.replaceAll("\\s+(asc|desc).*$", "");
                yield "(select " + first.replace("t.", "x.") + " from " + target.table() + " x where x.id = t."
                        + f.column() + ")";
            }
            case COUNT -> FilterCompiler.countExpression(f);
            case COMPUTED ->
                name.equals("display") && model.ordering().size() > 0
                        ? model.ordering().get(0)
                        : null;
            default -> f.isColumn() ? "t." + f.column() : null;
        };
    }
}
