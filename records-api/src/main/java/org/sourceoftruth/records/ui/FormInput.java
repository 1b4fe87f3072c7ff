package org.sourceoftruth.records.ui;

import io.quarkus.qute.TemplateData;
import java.util.List;

/**
 * One input of a model's form.
 *
 * @param type    text, number, checkbox, select, textarea, password or date
 * @param options a select's options (relations: the first objects and the current one)
 * @param picker  for a relation, the URL of the target's options for a search text (htmx)
 * @param error   the engine's message for this field after a refused write
 */
@TemplateData
public record FormInput(
        String name,
        String label,
        String type,
        String value,
        List<FilterForm.Option> options,
        boolean multiple,
        boolean required,
        String help,
        String picker,
        String error) {
    public boolean isSelect() {
        return type.equals("select");
    }

    public boolean isCheckbox() {
        return type.equals("checkbox");
    }

    public boolean isTextarea() {
        return type.equals("textarea");
    }

    FormInput withError(String message) {
        return new FormInput(name, label, type, value, options, multiple, required, help, picker, message);
    }
}
