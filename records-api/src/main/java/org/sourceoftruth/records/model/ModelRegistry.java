package org.sourceoftruth.records.model;

import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** Every declared model, by API path and by content type. Fails start-up on duplicates. */
@ApplicationScoped
public class ModelRegistry {
    private final Map<String, Model> byPath = new LinkedHashMap<>();
    private final Map<String, Model> byContentType = new LinkedHashMap<>();
    /**
     * FK, M2M and generic-FK fields pointing at each content type: what a delete of an object of
     * that type touches (delete protection and cascades).
     */
    private final Map<String, List<Reference>> referencesTo = new LinkedHashMap<>();

    /** A field of {@code owner} that points at another model (for a generic FK: at one of its types). */
    public record Reference(Model owner, Field field) {}

    @Inject
    public ModelRegistry(@All List<ModelDefinition> definitions, @All List<ModelMixin> mixins) {
        for (ModelDefinition def : definitions) {
            for (Model m : def.models()) {
                register(m);
            }
        }
        for (ModelMixin mixin : mixins) {
            for (String type : new TreeSet<>(mixin.contentTypes())) {
                Model m = byContentType.get(type);
                if (m == null) {
                    throw new IllegalStateException("a model mixin names undeclared model " + type);
                }
                mixin.apply(m);
            }
        }
        for (Model m : byContentType.values()) {
            for (Field f : m.fields()) {
                if (f.countContentType != null) {
                    Model counted = byContentType.get(f.countContentType);
                    if (counted == null) {
                        throw new IllegalStateException(
                                m.contentType() + "." + f.name + " counts undeclared model " + f.countContentType);
                    }
                    f.countTable = counted.table();
                }
            }
        }
        for (Model m : byContentType.values()) {
            for (Field f : m.fields()) {
                if (f.genericTargetRule != null) {
                    f.genericTypes = byContentType.values().stream()
                            .filter(f.genericTargetRule)
                            .map(Model::contentType)
                            .toList();
                }
            }
        }
        for (Model m : byContentType.values()) {
            for (Field f : m.fields()) {
                if (f.kind == Kind.FK || f.kind == Kind.M2M) {
                    if (!byContentType.containsKey(f.target())) {
                        throw new IllegalStateException(
                                m.contentType() + "." + f.name + " points at undeclared model " + f.target());
                    }
                    if (!f.isDetached()) {
                        referencesTo
                                .computeIfAbsent(f.target(), k -> new ArrayList<>())
                                .add(new Reference(m, f));
                    }
                } else if (f.kind == Kind.GENERIC_FK && !f.isDetached()) {
                    // Only declared targets: an object of another type cannot be deleted through the API.
                    f.genericTypes().stream().filter(byContentType::containsKey).forEach(type -> {
                        referencesTo
                                .computeIfAbsent(type, k -> new ArrayList<>())
                                .add(new Reference(m, f));
                        byContentType.get(type).filters(f.targetFilters(type));
                    });
                }
            }
        }
        // Declarations are complete: the SELECT each model's reads start with is built once.
        byContentType.values().forEach(Model::sealSelect);
        byContentType.values().forEach(Model::freeze);
    }

    private void register(Model m) {
        String key = m.app() + "/" + m.path();
        if (byPath.putIfAbsent(key, m) != null) {
            throw new IllegalStateException("two models declare /api/" + key + "/");
        }
        for (String alias : m.aliasPaths()) {
            if (byPath.putIfAbsent(alias, m) != null) {
                throw new IllegalStateException("two models declare /api/" + alias + "/");
            }
        }
        if (byContentType.putIfAbsent(m.contentType(), m) != null) {
            throw new IllegalStateException("two models declare content type " + m.contentType());
        }
    }

    public Optional<Model> byPath(String app, String path) {
        return Optional.ofNullable(byPath.get(app + "/" + path));
    }

    public Optional<Model> byContentType(String contentType) {
        return Optional.ofNullable(byContentType.get(contentType));
    }

    public Model require(String contentType) {
        Model m = byContentType.get(contentType);
        if (m == null) {
            throw new IllegalArgumentException("unknown content type " + contentType);
        }
        return m;
    }

    public Collection<Model> all() {
        return byContentType.values();
    }

    public List<Reference> referencesTo(String contentType) {
        return referencesTo.getOrDefault(contentType, List.of());
    }

    /** Applications that have at least one model, sorted. */
    public TreeSet<String> apps() {
        TreeSet<String> apps = new TreeSet<>();
        byPath.keySet().forEach(k -> apps.add(k.substring(0, k.indexOf('/'))));
        return apps;
    }

    /** path → model for one application, sorted by path (NetBox's router sorts). */
    public TreeMap<String, Model> modelsOf(String app) {
        TreeMap<String, Model> map = new TreeMap<>();
        byPath.forEach((key, m) -> {
            if (key.startsWith(app + "/")) {
                map.put(key.substring(app.length() + 1), m);
            }
        });
        return map;
    }
}
