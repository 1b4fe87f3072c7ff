package org.sourceoftruth.records.graphql;

import java.util.Locale;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;

/**
 * The names NetBox's GraphQL schema gives a model's parts, derived from its declaration: the
 * object type {@code <ApiName>Type}, the filter input {@code <ApiName>Filter}, the query fields
 * {@code <verbose_name>} and {@code <verbose_name>_list}
 * (see {@link #snake}), a choice field's enum
 * {@code <ApiName><Field>Enum} and its lookup {@code <ApiName><Field>EnumBaseFilterLookup}.
 */
final class GraphqlNames {
    private GraphqlNames() {}

    static String type(Model model) {
        return model.apiName() + "Type";
    }

    static String filter(Model model) {
        return model.apiName() + "Filter";
    }

    /** "IP address" → {@code ip_address}; NetBox names the query field after the model's class in snake case. */
    static String query(Model model) {
        return model.verboseName().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
    }

    /**
     * The API name in snake case ({@code VMInterface} → {@code vm_interface}): the query field of
     * a model whose verbose name another model has (a virtual machine's "interface").
     */
    static String snake(Model model) {
        return model.apiName()
                .replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2")
                .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .toLowerCase(Locale.ROOT);
    }

    static String choiceEnum(Model model, Field field) {
        return model.apiName() + camel(field.name) + "Enum";
    }

    static String choiceLookup(Model model, Field field) {
        return choiceEnum(model, field) + "BaseFilterLookup";
    }

    /** The union of a generic relation's targets: {@code <ApiName><Field>Type} (a prefix's scope: PrefixScopeType). */
    static String union(Model model, Field field) {
        String base = field.name.equals("assigned_object") ? "Assignment" : camel(field.name);
        return model.apiName() + base + "Type";
    }

    /** {@code cable_end} → {@code CableEnd}. */
    static String camel(String snake) {
        StringBuilder sb = new StringBuilder();
        for (String part : snake.split("_")) {
            if (!part.isEmpty()) {
                sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return sb.toString();
    }

    /**
     * A choice value as an enum value name: the field's name and the value in capitals, other
     * characters as underscores ({@code status} {@code active} → {@code STATUS_ACTIVE}), as
     * NetBox's choice constants read.
     */
    static String enumValue(Field field, String value) {
        String v = (field.name + "_" + value).toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_");
        return Character.isDigit(v.charAt(0)) ? "_" + v : v;
    }
}
