package org.sourceoftruth.records.graphql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * The relations a model is the target of, as NetBox's schema shows them on the target's type
 * (a site's {@code devices}, an interface's {@code ip_addresses}): every foreign key, many-to-many
 * field and generic relation of another model that points at it. A reverse relation is named
 * after the other model's API path ({@code ip-addresses} → {@code ip_addresses}), which is
 * Django's {@code related_name} for most of NetBox's models; when one model points at another
 * through several fields (a device's primary and out-of-band IPs), none of them is named so,
 * and of a model's references to itself only a tree's parent is, as {@code children}. Where
 * Django's default name (the class name in lower case and an s: a device's {@code consoleports})
 * differs, the relation answers to both.
 */
final class Relations {
    /** A reverse relation: objects of {@code owner} whose {@code field} points at the target. */
    record Reverse(String name, Model owner, Field field) {
        /** Whether {@code field} points at models of this content type. */
        boolean reaches(String contentType) {
            return field.kind == Kind.GENERIC_FK ? field.genericTypes().contains(contentType) : true;
        }
    }

    private final Map<String, Map<String, Reverse>> byTarget = new HashMap<>();

    /** From the registry's index of references (the one deletes use): nothing walked twice. */
    Relations(ModelRegistry registry) {
        for (Model target : registry.all()) {
            Map<Model, List<Field>> pointing = new LinkedHashMap<>();
            for (ModelRegistry.Reference r : registry.referencesTo(target.contentType())) {
                if (!r.field().isWriteOnly() && !r.field().isSecret()) {
                    pointing.computeIfAbsent(r.owner(), k -> new ArrayList<>()).add(r.field());
                }
            }
            for (Map.Entry<Model, List<Field>> e : pointing.entrySet()) {
                Model owner = e.getKey();
                if (owner == target) {
                    Field parent = owner.treeParent() == null ? null : owner.field(owner.treeParent());
                    if (parent != null && e.getValue().contains(parent)) {
                        add(target.contentType(), new Reverse("children", owner, parent));
                    }
                    continue;
                }
                if (e.getValue().size() != 1) {
                    continue;
                }
                Field field = e.getValue().get(0);
                add(target.contentType(), new Reverse(owner.path().replace('-', '_'), owner, field));
                // Django's default for NetBox's components and many others: the class name in lower case and an s
                add(target.contentType(), new Reverse(owner.apiName().toLowerCase(Locale.ROOT) + "s", owner, field));
            }
        }
    }

    private void add(String target, Reverse reverse) {
        byTarget.computeIfAbsent(target, k -> new LinkedHashMap<>()).putIfAbsent(reverse.name(), reverse);
    }

    /** The reverse relations onto the model with this content type, by name. */
    Map<String, Reverse> onto(String contentType) {
        return byTarget.getOrDefault(contentType, Map.of());
    }
}
