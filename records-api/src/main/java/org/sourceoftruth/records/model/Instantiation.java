package org.sourceoftruth.records.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a component template makes (NetBox's {@code component_model} and {@code instantiate()}):
 * objects of {@code componentType}, each with the template's columns copied as {@code columns}
 * maps them (component column → template column). Declared with {@link Model#instantiates}.
 *
 * <p>The template model holds a foreign key to the type it belongs to (a device type, a module
 * type); when an object is created from such a type ({@link Model#componentsFrom}), the engine
 * creates one component per template of its type. Names, labels and positions are passed
 * through the owner's {@link ComponentNames} ({@code {module}} becomes the module bay's position).
 */
public record Instantiation(String componentType, Map<String, String> columns) {
    /** The component columns NetBox resolves {@code {module}} in (resolve_name, resolve_label, resolve_position). */
    public static final Set<String> RESOLVED = Set.of("name", "label", "position");

    /** Columns copied under the same name. */
    public static Instantiation of(String componentType, String... sameNamedColumns) {
        Map<String, String> columns = new LinkedHashMap<>();
        for (String column : sameNamedColumns) {
            columns.put(column, column);
        }
        return new Instantiation(componentType, Map.copyOf(columns));
    }
}
