package org.sourceoftruth.records.ui;

import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * The columns of a model's table: by default the model's brief fields and a few that most
 * lists show (status, placement, tenant, description); {@code ?columns=a,b} picks others from
 * every field a list can show.
 */
final class Columns {
    /** Fields every row has and the table shows otherwise (the first column is the object's name). */
    private static final Set<String> IDENTITY = Set.of("id", "url", "display_url", "display");
    /** Brief fields the first column already shows for most models. */
    private static final Set<String> NAMES = Set.of("name");
    /** Fields lists commonly show, in this order, when the model has them. */
    private static final List<String> COMMON = List.of(
            "status",
            "site",
            "location",
            "rack",
            "device",
            "role",
            "type",
            "tenant",
            "vrf",
            "vlan",
            "assigned_object",
            "description");

    private static final int MAX_DEFAULT = 8;

    @TemplateData
    public record Column(String name, String label, boolean sortable) {}

    private Columns() {}

    /** Every field a list can show as a column. */
    static List<Column> available(Model model) {
        List<Column> out = new ArrayList<>();
        for (Field f : model.fields()) {
            if (shows(f)) {
                out.add(new Column(f.name, f.label(), f.isOrderable() && f.isColumn()));
            }
        }
        return out;
    }

    static List<Column> of(Model model, String requested) {
        Set<String> names = new LinkedHashSet<>();
        if (requested != null && !requested.isBlank()) {
            for (String n : requested.split(",")) {
                Field f = model.field(n.trim());
                if (f != null && shows(f)) {
                    names.add(f.name);
                }
            }
        }
        if (names.isEmpty()) {
            names.addAll(defaults(model));
        }
        List<Column> out = new ArrayList<>();
        for (String n : names) {
            Field f = model.field(n);
            out.add(new Column(f.name, f.label(), f.isOrderable() && f.isColumn()));
        }
        return out;
    }

    static List<String> defaults(Model model) {
        Set<String> names = new LinkedHashSet<>();
        for (String n : model.briefNames()) {
            Field f = model.field(n);
            if (f != null && shows(f) && !NAMES.contains(n)) {
                names.add(n);
            }
        }
        for (String n : COMMON) {
            Field f = model.field(n);
            if (names.size() < MAX_DEFAULT && f != null && shows(f)) {
                names.add(n);
            }
        }
        return new ArrayList<>(names);
    }

    private static boolean shows(Field f) {
        return !IDENTITY.contains(f.name)
                && !f.isWriteOnly()
                && !f.isSecret()
                && f.kind != Kind.JSON
                && f.kind != Kind.CUSTOM_FIELDS
                && !f.isUnrendered();
    }
}
