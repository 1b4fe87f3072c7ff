package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.customfields.CustomFields;
import org.sourceoftruth.records.engine.store.RowChanges;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.engine.store.RowStore;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.InstantiatedRows;
import org.sourceoftruth.records.model.Instantiation;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ApiException;

/**
 * The related writes of a create: an object whose model declares {@link Model#componentsFrom}
 * (a device, a module) gets one component per template of its type, as NetBox's
 * {@code Device.save()} and {@code Module.save()} make them. Template models say what they make
 * with {@link Model#instantiates}; nothing here knows a particular model.
 *
 * <p>A component points at its owner through its foreign key to the owner's model (a module bay's
 * {@code module}, an interface's {@code device} when the owner is a device) and shares the
 * owner's other references of the same name (a module's {@code device}). Names, labels and
 * positions go through the owner's {@link org.sourceoftruth.records.model.ComponentNames}.
 *
 * <p>Set-wise, as a bulk create: one query per template model, one INSERT (and one re-read and
 * render) per component model, however many templates; each component gets the change record
 * an API create would give it, in the request's transaction.
 */
@ApplicationScoped
class ComponentInstantiation {
    @Inject
    ModelRegistry registry;

    @Inject
    WrittenObjects writtenObjects;

    @Inject
    CacheInvalidators caches;

    @Inject
    CustomFields customFields;

    /** One owner's part: its row, how its component names resolve, and what the request asked. */
    private record Owner(Row row, UnaryOperator<String> names, boolean replicate, boolean adopt) {}

    /**
     * Writes the components of the owners just created (ids in request order) and returns their
     * change records, to be recorded after the owners'.
     */
    List<ChangeRecord> instantiate(Db db, Model model, List<Long> ids, List<JsonNode> bodies) {
        if (model.componentTypeField() == null || ids.isEmpty()) {
            return List.of();
        }
        Field typeField = model.field(model.componentTypeField());
        List<Row> rows = RowLoader.loadAll(db, model, ids);
        List<Owner> owners = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            owners.add(owner(db, model, rows.get(i), bodies.get(i)));
        }
        List<Long> typeIds = rows.stream()
                .map(r -> r.longValue(typeField.column()))
                .distinct()
                .toList();
        List<ChangeRecord> records = new ArrayList<>();
        Map<String, Map<List<Long>, Long>> made = new HashMap<>();
        for (ModelRegistry.Reference ref : registry.referencesTo(typeField.target())) {
            Model template = ref.owner();
            if (template.instantiation() == null || ref.field().kind != Kind.FK) {
                continue;
            }
            List<Row> templates = db.query(
                    "select * from " + template.table() + " t where t."
                            + ref.field().column() + " = any(?) order by t.id",
                    new Db.SqlArray("bigint", typeIds));
            if (!templates.isEmpty()) {
                records.addAll(
                        make(db, model, owners, ref.field().column(), typeField.column(), templates, template, made));
            }
        }
        return records;
    }

    private Owner owner(Db db, Model model, Row row, JsonNode body) {
        boolean replicate = true;
        boolean adopt = false;
        if (model.hasComponentOptions()) {
            replicate = flag(body, "replicate_components", true);
            adopt = flag(body, "adopt_components", false);
        }
        UnaryOperator<String> names = UnaryOperator.identity();
        if (replicate || adopt) {
            try {
                names = model.componentNames().forOwner(db, row);
            } catch (IllegalArgumentException e) {
                throw ApiException.field("non_field_errors", e.getMessage());
            }
        }
        return new Owner(row, names, replicate, adopt);
    }

    /** A boolean option of the request (DRF's BooleanField: true/false, 1/0, "true"/"false"...). */
    private static boolean flag(JsonNode body, String name, boolean dflt) {
        JsonNode v = body == null ? null : body.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        String text = v.asText().trim().toLowerCase(java.util.Locale.ROOT);
        return switch (text) {
            case "true", "1", "yes", "on", "t", "y" -> true;
            case "false", "0", "no", "off", "f", "n" -> false;
            default -> throw ApiException.field(name, "Must be a valid boolean.");
        };
    }

    /** The components of one template model for every owner: adopted ones updated, the rest inserted. */
    private List<ChangeRecord> make(
            Db db,
            Model ownerModel,
            List<Owner> owners,
            String templateTypeColumn,
            String ownerTypeColumn,
            List<Row> templates,
            Model templateModel,
            Map<String, Map<List<Long>, Long>> made) {
        Instantiation instantiation = templateModel.instantiation();
        Model component = registry.require(instantiation.componentType());
        Map<String, String> madeFrom = templateReferences(templateModel);
        Map<String, String> genericIds = genericTemplateReferences(templateModel);
        List<List<Long>> insertedFrom = new ArrayList<>();
        // references to templates of this same model (an interface template's bridge, an
        // inventory item template's parent): set once the components they point at exist
        List<SelfReference> selfReferences = new ArrayList<>();
        Map<String, String> links = links(ownerModel, component);
        Map<Long, List<Row>> byType = new HashMap<>();
        templates.forEach(t -> byType.computeIfAbsent(t.longValue(templateTypeColumn), k -> new ArrayList<>())
                .add(t));
        Object customFieldDefaults = component.hasCustomFields()
                ? customFields.merge(component, null, null, true, new LinkedHashMap<>())
                : null;
        Map<String, Row> existing = existingByName(db, ownerModel, component, owners, links);
        String ownerColumn = ownerColumn(ownerModel, component);
        List<RowChanges> inserts = new ArrayList<>();
        List<Long> adopted = new ArrayList<>();
        for (Owner owner : owners) {
            if (!owner.replicate() && !owner.adopt()) {
                continue;
            }
            for (Row template : byType.getOrDefault(owner.row().longValue(ownerTypeColumn), List.of())) {
                Row row = new Row();
                links.forEach((componentColumn, ownerColumnName) ->
                        row.put(componentColumn, owner.row().get(ownerColumnName)));
                instantiation.columns().forEach((componentColumn, templateColumn) -> {
                    Object value = template.get(templateColumn);
                    if (value != null && templateModel.contentType().equals(madeFrom.get(templateColumn))) {
                        selfReferences.add(new SelfReference(
                                inserts.size(),
                                componentColumn,
                                List.of(owner.row().id(), ((Number) value).longValue())));
                        value = null;
                    } else if (madeFrom.containsKey(templateColumn) && value != null) {
                        // a reference to another template: to the component made from it for this owner
                        value = made.getOrDefault(madeFrom.get(templateColumn), Map.of())
                                .get(List.of(owner.row().id(), ((Number) value).longValue()));
                    } else if (genericIds.containsKey(templateColumn) && value != null) {
                        // a generic reference to another template (an inventory item template's component)
                        value = made.getOrDefault(template.str(genericIds.get(templateColumn)), Map.of())
                                .get(List.of(owner.row().id(), ((Number) value).longValue()));
                    } else if (genericIds.containsValue(templateColumn) && value != null) {
                        value = registry.require(value.toString())
                                .instantiation()
                                .componentType();
                    }
                    row.put(
                            componentColumn,
                            value instanceof String s && Instantiation.RESOLVED.contains(componentColumn)
                                    ? resolve(owner.names(), s)
                                    : value);
                });
                if (customFieldDefaults != null) {
                    row.put("custom_field_data", customFieldDefaults);
                }
                Row same = existing.get(sameKey(row, links));
                if (same != null && owner.adopt() && ownerColumn != null && same.get(ownerColumn) == null) {
                    adopted.add(same.id());
                } else if (same != null && owner.adopt()) {
                    throw ApiException.field(
                            "non_field_errors",
                            "Cannot adopt " + component.apiName() + " " + row.str("name")
                                    + " as it already belongs to a module");
                } else if (same != null && ownerModel.hasComponentOptions()) {
                    throw ApiException.field(
                            "non_field_errors",
                            "A " + component.apiName() + " named " + row.str("name") + " already exists");
                } else if (owner.replicate()) {
                    inserts.add(new RowChanges(row, Map.of(), null));
                    insertedFrom.add(List.of(owner.row().id(), template.id()));
                }
            }
        }
        List<ChangeRecord> records = new ArrayList<>();
        if (!adopted.isEmpty()) {
            records.addAll(adopt(db, component, ownerColumn, adopted, owners, existing, links));
        }
        if (!inserts.isEmpty()) {
            List<Long> ids = RowStore.insertAll(db, component, inserts);
            Map<List<Long>, Long> byTemplate = made.computeIfAbsent(templateModel.contentType(), k -> new HashMap<>());
            for (int i = 0; i < ids.size(); i++) {
                byTemplate.put(insertedFrom.get(i), ids.get(i));
            }
            linkSelfReferences(db, component, selfReferences, ids, byTemplate);
            if (templateModel.instantiatedRows() != null) {
                List<InstantiatedRows.Component> components = new ArrayList<>();
                for (int i = 0; i < ids.size(); i++) {
                    components.add(new InstantiatedRows.Component(
                            insertedFrom.get(i).get(0), insertedFrom.get(i).get(1), ids.get(i)));
                }
                templateModel.instantiatedRows().write(db, new InstantiatedRows.Made() {
                    @Override
                    public List<InstantiatedRows.Component> components() {
                        return components;
                    }

                    @Override
                    public Long component(String templateType, long owner, long templateId) {
                        return made.getOrDefault(templateType, Map.of()).get(List.of(owner, templateId));
                    }
                });
            }
            records.addAll(writtenObjects
                    .of(db, component, ChangeAction.CREATE, Collections.nCopies(ids.size(), null), ids, null)
                    .records());
            caches.changed(component, false);
        }
        return records;
    }

    /**
     * Template columns referring to templates that make components (a front port template's
     * rear port template, an interface template's bridge): column → the referenced template
     * model. Other models' templates are made first, as the templates are declared in that order.
     */
    private Map<String, String> templateReferences(Model templateModel) {
        Map<String, String> out = new HashMap<>();
        for (Field f : templateModel.fields()) {
            if (f.kind == Kind.FK && registry.require(f.target()).instantiation() != null) {
                out.put(f.column(), f.target());
            }
        }
        return out;
    }

    /** A component's column that is to point at the component made from {@code template} for the owner. */
    private record SelfReference(int insert, String column, List<Long> template) {}

    /**
     * Sets the self references of components just inserted, once all of them exist (one UPDATE
     * per column, whatever their number), before their change records are written.
     */
    private static void linkSelfReferences(
            Db db, Model component, List<SelfReference> refs, List<Long> ids, Map<List<Long>, Long> byTemplate) {
        Map<String, List<Object>> byColumn = new LinkedHashMap<>();
        for (SelfReference ref : refs) {
            Long target = byTemplate.get(ref.template());
            if (target != null) {
                List<Object> params = byColumn.computeIfAbsent(ref.column(), k -> new ArrayList<>());
                params.add(ids.get(ref.insert()));
                params.add(target);
            }
        }
        byColumn.forEach((column, params) -> db.update(
                "update " + component.table() + " c set " + Db.q(column)
                        + " = v.target from (values "
                        + String.join(", ", Collections.nCopies(params.size() / 2, "(?::bigint, ?::bigint)"))
                        + ") as v(id, target) where c.id = v.id",
                params));
    }

    /**
     * Generic references of a template to other templates that make components (an inventory
     * item template's component): id column → type column. The component made from the
     * referenced template takes their place.
     */
    private Map<String, String> genericTemplateReferences(Model templateModel) {
        Map<String, String> out = new HashMap<>();
        for (Field f : templateModel.fields()) {
            if (f.kind == Kind.GENERIC_FK
                    && !f.genericTypes().isEmpty()
                    && f.genericTypes().stream()
                            .allMatch(t -> registry.byContentType(t)
                                    .map(m -> m.instantiation() != null)
                                    .orElse(false))) {
                out.put(f.genericIdColumn(), f.genericTypeColumn());
            }
        }
        return out;
    }

    /** {@code {module}} tokens NetBox cannot resolve refuse the install (its ValueError). */
    private static String resolve(UnaryOperator<String> names, String value) {
        try {
            return names.apply(value);
        } catch (IllegalArgumentException e) {
            throw ApiException.field("non_field_errors", e.getMessage());
        }
    }

    /**
     * Component column → owner column: the component's reference named after the owner's model
     * ({@code device}, {@code module}) takes the owner's id, its references named like the
     * owner's take the owner's values (a module's {@code device}).
     */
    private static Map<String, String> links(Model ownerModel, Model component) {
        Map<String, String> links = new LinkedHashMap<>();
        String ownerName =
                ownerModel.contentType().substring(ownerModel.contentType().indexOf('.') + 1);
        for (Field f : component.fields()) {
            if (f.kind != Kind.FK) {
                continue;
            }
            Field same = ownerModel.field(f.name);
            // the relation named after the owner's model (a bay's device, not the device installed in it)
            if (f.target().equals(ownerModel.contentType()) && f.name.equals(ownerName)) {
                links.put(f.column(), "id");
            } else if (same != null && same.kind == Kind.FK && same.target().equals(f.target())) {
                links.put(f.column(), same.column());
            }
        }
        return links;
    }

    /** The component's column pointing at the owner (a module bay's module_id), when not its main parent. */
    private static String ownerColumn(Model ownerModel, Model component) {
        String ownerName =
                ownerModel.contentType().substring(ownerModel.contentType().indexOf('.') + 1);
        for (Field f : component.fields()) {
            if (f.kind == Kind.FK
                    && f.target().equals(ownerModel.contentType())
                    && f.name.equals(ownerName)
                    && f.isNullable()) {
                return f.column();
            }
        }
        return null;
    }

    /**
     * Components that already exist where the new ones go (same parent, same name), for NetBox's
     * adopt and conflict rules; only asked when the owner's model takes those options.
     */
    private Map<String, Row> existingByName(
            Db db, Model ownerModel, Model component, List<Owner> owners, Map<String, String> links) {
        Map<String, Row> out = new HashMap<>();
        String parentColumn = parentColumn(links);
        if (!ownerModel.hasComponentOptions() || parentColumn == null) {
            return out;
        }
        List<Object> parents = owners.stream()
                .map(o -> o.row().get(links.get(parentColumn)))
                .distinct()
                .toList();
        for (Row r : db.query(
                "select * from " + component.table() + " where " + parentColumn + " = any(?)",
                new Db.SqlArray("bigint", parents))) {
            out.put(r.get(parentColumn) + "\u0000" + r.str("name"), r);
        }
        return out;
    }

    private static String sameKey(Row row, Map<String, String> links) {
        String parent = parentColumn(links);
        return parent == null ? null : row.get(parent) + "\u0000" + row.str("name");
    }

    /** The reference the component shares with its owner (a module's device): where names must be unique. */
    private static String parentColumn(Map<String, String> links) {
        for (Map.Entry<String, String> link : links.entrySet()) {
            if (!link.getValue().equals("id")) {
                return link.getKey();
            }
        }
        return null;
    }

    /** NetBox's adopt_components: existing components without a module join the new one (an update each). */
    private List<ChangeRecord> adopt(
            Db db,
            Model component,
            String ownerColumn,
            List<Long> ids,
            List<Owner> owners,
            Map<String, Row> existing,
            Map<String, String> links) {
        List<JsonNode> pres = ChangeSnapshots.of(db, component, RowLoader.loadAll(db, component, ids));
        // every owner adopting here is one module of one request: the first adopting owner of the device
        Map<Object, Long> ownerByParent = new HashMap<>();
        String parent = parentColumn(links);
        for (Owner o : owners) {
            if (o.adopt()) {
                ownerByParent.putIfAbsent(
                        o.row().get(links.get(parent)), o.row().id());
            }
        }
        Map<Long, List<Long>> byOwner = new LinkedHashMap<>();
        for (Long id : ids) {
            Row row = existing.values().stream()
                    .filter(r -> r.id() == id)
                    .findFirst()
                    .orElseThrow();
            byOwner.computeIfAbsent(ownerByParent.get(row.get(parent)), k -> new ArrayList<>())
                    .add(id);
        }
        byOwner.forEach((owner, members) -> db.update(
                "update " + component.table() + " set " + ownerColumn + " = ?, last_updated = now() where id = any(?)",
                owner,
                new Db.SqlArray("bigint", members)));
        List<ChangeRecord> records = writtenObjects
                .of(db, component, ChangeAction.UPDATE, pres, ids, null)
                .records();
        caches.changed(component, false);
        return records;
    }
}
