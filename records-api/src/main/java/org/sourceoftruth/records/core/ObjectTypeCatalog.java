package org.sourceoftruth.records.core;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Writes one core_objecttype row per declared model at start-up (new models get a row, known
 * ones are refreshed; ids never change), as Django creates content types after migrating. Like
 * those, the rows are the system's own catalogue, not objects a user changes, so they get no
 * change records. Replicas starting together write the same rows (an upsert on app and model).
 */
@ApplicationScoped
public class ObjectTypeCatalog {
    /** The applications' verbose names, as NetBox's app configs give them. */
    private static final Map<String, String> APP_NAMES = Map.of(
            "circuits",
            "Circuits",
            "core",
            "Core",
            "dcim",
            "DCIM",
            "extras",
            "Extras",
            "ipam",
            "IPAM",
            "tenancy",
            "Tenancy",
            "users",
            "Users",
            "virtualization",
            "Virtualization",
            "vpn",
            "VPN",
            "wireless",
            "Wireless");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    // One statement for the whole catalogue (one round trip instead of one per model: the loop of
    // 127 upserts took ~100 ms of start-up's main thread, this ~64 ms, most of it the model
    // registry's first use), and a row is written only when it differs: a restart with the same
    // models writes nothing. Features travel as comma-joined text (unnest cannot carry an
    // array per row); they are plain words.
    @Transactional
    void onStart(@Observes StartupEvent ev) throws SQLException {
        List<String> appLabels = new ArrayList<>();
        List<String> models = new ArrayList<>();
        List<String> appNames = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> plurals = new ArrayList<>();
        List<String> featureWords = new ArrayList<>();
        List<String> endpoints = new ArrayList<>();
        for (Model m : registry.all()) {
            String[] parts = m.contentType().split("\\.", 2);
            appLabels.add(parts[0]);
            models.add(parts[1]);
            appNames.add(APP_NAMES.getOrDefault(parts[0], parts[0]));
            names.add(m.verboseName());
            plurals.add(plural(m.verboseName()));
            featureWords.add(String.join(",", features(m)));
            endpoints.add("/api/" + m.app() + "/" + m.path() + "/");
        }
        try (Connection c = dataSource.getConnection()) {
            new Db(c)
                    .update(
                            "insert into " + SystemTables.CORE_OBJECTTYPE
                                    + " (app_label, model, app_name, model_name, model_name_plural,"
                                    + " features, rest_api_endpoint)"
                                    + " select app_label, model, app_name, model_name, model_name_plural, string_to_array(features, ','),"
                                    + " rest_api_endpoint from unnest(?, ?, ?, ?, ?, ?, ?) as t(app_label, model, app_name, model_name,"
                                    + " model_name_plural, features, rest_api_endpoint)"
                                    + " on conflict (app_label, model) do update set"
                                    + " app_name = excluded.app_name, model_name = excluded.model_name, model_name_plural ="
                                    + " excluded.model_name_plural, features = excluded.features, rest_api_endpoint ="
                                    + " excluded.rest_api_endpoint where (" + SystemTables.CORE_OBJECTTYPE
                                    + ".app_name, " + SystemTables.CORE_OBJECTTYPE + ".model_name,"
                                    + " " + SystemTables.CORE_OBJECTTYPE + ".model_name_plural, "
                                    + SystemTables.CORE_OBJECTTYPE + ".features, " + SystemTables.CORE_OBJECTTYPE
                                    + ".rest_api_endpoint)"
                                    + " is distinct from (excluded.app_name, excluded.model_name, excluded.model_name_plural,"
                                    + " excluded.features, excluded.rest_api_endpoint)",
                            text(appLabels),
                            text(models),
                            text(appNames),
                            text(names),
                            text(plurals),
                            text(featureWords),
                            text(endpoints));
        }
    }

    private static Db.SqlArray text(List<String> values) {
        return new Db.SqlArray("text", values);
    }

    /** NetBox's model features this service gives the model. */
    static List<String> features(Model m) {
        List<String> out = new ArrayList<>();
        boolean featured = m.hasTags() && m.hasCustomFields() && !m.app().equals("extras");
        if (featured) {
            out.add("bookmarks");
        }
        if (m.isChangedByEngine()) {
            out.add("change_logging");
        }
        if (m.hasCustomFields()) {
            out.add("custom_fields");
        }
        if (m.hasEventRules()) {
            out.add("event_rules");
        }
        if (featured) {
            out.add("notifications");
        }
        if (m.hasTags()) {
            out.add("tags");
        }
        return out;
    }

    /** Django's default plural (verbose name + "s"), with English's -y and -s endings. */
    static String plural(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith("y") && !lower.endsWith("ey") && !lower.endsWith("ay")) {
            return name.substring(0, name.length() - 1) + "ies";
        }
        if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("ch")) {
            return name + "es";
        }
        return name + "s";
    }
}
