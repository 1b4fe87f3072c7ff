package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.DcimChoices.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

/** dcim power: power panels (a site's distribution points) and the power feeds they deliver. */
@ApplicationScoped
public class PowerModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model panel = Model.of("dcim", "power-panels", "power panel")
                .fields(
                        fk("site", "dcim.site").required().protect(),
                        fk("location", "dcim.location").protect(),
                        str("name").required().max(100),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("powerfeed_count", "dcim_powerfeed", "power_panel_id"))
                .check(PowerModels::locationInSite)
                .unique(UniqueRule.of("Power panel with this Site and Name already exists.", "site_id", "name"))
                .ordering("t.site_id", "t.name")
                .search("t.name", "t.description")
                .brief("name", "description", "powerfeed_count");

        Model feed = Model.of("dcim", "power-feeds", "power feed")
                .fields(
                        fk("power_panel", "dcim.powerpanel").required().protect(),
                        fk("rack", "dcim.rack").protect(),
                        str("name").required().max(100),
                        choice("status", POWER_FEED_STATUS).dflt("active"),
                        choice("type", POWER_FEED_TYPE).dflt("primary"),
                        choice("supply", POWER_FEED_SUPPLY).dflt("ac"),
                        choice("phase", POWER_FEED_PHASE).dflt("single-phase"),
                        // NetBox's POWERFEED_DEFAULT_VOLTAGE, _AMPERAGE and _MAX_UTILIZATION
                        integer("voltage").range(-32768, 32767).dflt(120),
                        integer("amperage").range(1, 32767).dflt(15),
                        integer("max_utilization").range(1, 100).dflt(80).help("Maximum permissible draw (percentage)"),
                        bool("mark_connected").dflt(false))
                .fields(CabledFields.cabled("dcim.powerfeed"))
                .fields(CabledFields.pathEndpoint("dcim.powerfeed"))
                .fields(
                        str("description").max(200),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("comments"))
                .standardTail()
                // available_power is a generated column (kVA of the feed at its utilisation limit):
                // filtered on, not rendered, as in NetBox's API
                .filters(ExtraFilters.number("available_power", "{t}.available_power"))
                .validator(PowerModels::feedVoltage)
                .check(PowerModels::rackInPanelSite)
                .placedThrough("power_panel")
                .filters(CabledFields.filters(Model.of("dcim", "-", "dcim.powerfeed", "-", "-"), true)
                        .extraFilters()
                        .values())
                .unique(UniqueRule.of(
                        "Power feed with this Power panel and Name already exists.", "power_panel_id", "name"))
                .ordering("t.power_panel_id", "t.name")
                .search(
                        "t.name",
                        "t.description",
                        "t.comments",
                        "(select p.name from dcim_powerpanel p where p.id = t.power_panel_id)")
                .brief("name", "description", "cable", "_occupied");
        return List.of(panel, feed);
    }

    /** NetBox's PowerPanel.clean(): the location is one of the panel's site. */
    static void locationInSite(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long location = row.longValue("location_id");
        if (location == null) {
            return;
        }
        Row placed = placed(db, "dcim_location", location);
        if (!placed.longValue("site_id").equals(row.longValue("site_id"))) {
            String site = db.query("select name from dcim_site where id = ?", row.longValue("site_id"))
                    .get(0)
                    .str("name");
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("Location " + placed.str("name") + " (" + placed.str("site_name")
                            + ") is in a different site than " + site);
        }
    }

    /** NetBox's PowerFeed.clean(): the rack stands at the panel's site. */
    static void rackInPanelSite(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long rack = row.longValue("rack_id");
        if (rack == null) {
            return;
        }
        Row r = placed(db, "dcim_rack", rack);
        Row p = placed(db, "dcim_powerpanel", row.longValue("power_panel_id"));
        if (!r.longValue("site_id").equals(p.longValue("site_id"))) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                    .add("Rack " + r.str("name") + " ("
                            + r.str("site_name") + ") and power panel " + p.str("name") + " (" + p.str("site_name")
                            + ") are in different sites");
        }
    }

    /** name, site_id and site_name of a row of a table with a site (a location, a rack, a panel). */
    private static Row placed(Queries db, String table, long id) {
        return db.query(
                        "select x.name, x.site_id, s.name as site_name from " + table + " x join dcim_site s"
                                + " on s.id = x.site_id where x.id = ?",
                        id)
                .get(0);
    }

    /** The voltage's ExclusionValidator([0]) and PowerFeed.clean()'s rule for AC supply. */
    static void feedVoltage(Row row, Map<String, List<String>> errors) {
        Long voltage = row.longValue("voltage");
        if (voltage == null) {
            return;
        }
        if (voltage == 0) {
            errors.computeIfAbsent("voltage", k -> new ArrayList<>()).add("This value may not be 0.");
        } else if (voltage < 0 && "ac".equals(row.str("supply"))) {
            errors.computeIfAbsent("voltage", k -> new ArrayList<>()).add("Voltage cannot be negative for AC supply");
        }
    }
}
