package org.sourceoftruth.records.ui;

import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * The filter form of a list, built from the model's filterable fields: a select for each
 * choice and yes/no field, an id box for each relation (the API's {@code <field>_id}), the
 * tag's slug. It submits the API's own filter parameters; any other filter the API takes
 * (lookups such as {@code name__ic}) works in the URL as well.
 */
final class FilterForm {
    @TemplateData
    public record Input(String name, String label, String value, List<Option> options) {
        public boolean isSelect() {
            return options != null;
        }
    }

    @TemplateData
    public record Option(String value, String label, boolean selected) {}

    private FilterForm() {}

    static List<Input> of(Model model, QueryString query) {
        List<Input> out = new ArrayList<>();
        for (Field f : model.fields()) {
            if (!f.isFilterable() || !f.isColumn() || f.isWriteOnly() || f.isSecret()) {
                continue;
            }
            if (f.kind == Kind.CHOICE && f.choices() != null) {
                out.add(new Input(f.name, f.label(), null, options(f.choices(), query.first(f.name))));
            } else if (f.kind == Kind.BOOLEAN) {
                String v = query.first(f.name);
                out.add(new Input(
                        f.name,
                        f.label(),
                        null,
                        List.of(
                                new Option("", "—", v == null || v.isEmpty()),
                                new Option("true", "Yes", "true".equals(v)),
                                new Option("false", "No", "false".equals(v)))));
            } else if (f.kind == Kind.FK) {
                out.add(new Input(f.column(), f.label() + " (id)", query.first(f.column()), null));
            }
        }
        if (model.hasTags()) {
            out.add(new Input("tag", "Tag (slug)", query.first("tag"), null));
        }
        return out;
    }

    static List<Option> options(ChoiceSet choices, String selected) {
        List<Option> out = new ArrayList<>();
        out.add(new Option("", "—", selected == null || selected.isEmpty()));
        for (String v : choices.values()) {
            out.add(new Option(v, choices.label(v), v.equals(selected)));
        }
        return out;
    }
}
