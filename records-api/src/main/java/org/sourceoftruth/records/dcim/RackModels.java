package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.DcimChoices.*;
import static org.sourceoftruth.records.model.Declarations.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.model.WriteHook;

/** dcim racks: rack types, rack roles, rack groups, racks (their devices' rack space) and rack reservations. */
@ApplicationScoped
public class RackModels implements ModelDefinition {
    static final ChoiceSet RESERVATION_STATUS = ChoiceSet.capitalised("pending", "active", "stale");

    @Override
    public List<Model> models() {
        Model rackType = Model.of("dcim", "rack-types", "rack type")
                .fields(
                        fk("manufacturer", "dcim.manufacturer").required().protect(),
                        str("model").required().max(100),
                        slug("slug").unique(),
                        str("description").max(200),
                        choice("form_factor", RACK_FORM_FACTOR).required())
                .fields(physical())
                .fields(str("comments"))
                .standardTail()
                .fields(count("rack_count", "dcim_rack", "rack_type_id"))
                .validator(RackModels::unitsGiven)
                .hook(new RacksFollowTheirType())
                .display(r -> r.str("model"))
                .unique(UniqueRule.of(
                        "Rack type with this Manufacturer and Model already exists.", "manufacturer_id", "model"))
                .ordering("t.manufacturer_id", "t.model")
                .search("t.model", "t.description", "t.comments")
                .brief("manufacturer", "model", "slug", "description", "rack_count");

        Model rackRole = organizational("dcim", "rack-roles", "rack role")
                .fields(
                        str("color").max(6).dflt("9e9e9e").pattern(COLOR, COLOR_MESSAGE),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .fields(count("rack_count", "dcim_rack", "role_id"))
                .brief("rack_count");

        // racks grouped by physical placement (a row, a cage), across locations
        Model rackGroup = organizational("dcim", "rack-groups", "rack group")
                .fields(str("description").max(200), str("comments"))
                .standardTail()
                .fields(count("rack_count", "dcim_rack", "group_id"))
                .brief("rack_count");

        Model rack = Model.of("dcim", "racks", "rack")
                .fields(
                        str("name").required().max(100),
                        str("facility_id").max(50).nullable().dflt(null),
                        fk("site", "dcim.site").required().protect(),
                        fk("location", "dcim.location").cascade(),
                        fk("group", "dcim.rackgroup").protect(),
                        fk("tenant", "tenancy.tenant").protect(),
                        choice("status", RACK_STATUS).dflt("active"),
                        fk("role", "dcim.rackrole"),
                        str("serial").max(50),
                        str("asset_tag").max(50).nullable().unique().dflt(null),
                        // a rack type's physical attributes replace the rack's own on every save (V65's trigger)
                        fk("rack_type", "dcim.racktype").protect(),
                        choice("form_factor", RACK_FORM_FACTOR).nullable())
                .fields(physical())
                .fields(
                        choice("airflow", RACK_AIRFLOW).nullable(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .validator(RackModels::unitsGiven)
                .check(RackSpace::rackHoldsItsDevices)
                .fields(
                        count("device_count", "dcim_device", "rack_id"),
                        count("powerfeed_count", "dcim_powerfeed", "rack_id"))
                .relationFilter("manufacturer", "rack_type.manufacturer", "slug")
                .relationFilter("manufacturer_id", "rack_type.manufacturer", "id")
                // per location, as NetBox's constraints: racks of no location are not compared
                .unique(UniqueRule.of("Rack with this Location and Name already exists.", "location_id", "name")
                        .skipIfNull("location_id"))
                .unique(UniqueRule.of(
                                "Rack with this Location and Facility ID already exists.", "location_id", "facility_id")
                        .skipIfNull("location_id", "facility_id"))
                .ordering("t.site_id", "t.location_id nulls first", "t.name")
                .display(RackModels::rackDisplay)
                .search("t.name", "t.facility_id", "t.serial", "t.asset_tag", "t.description", "t.comments")
                .brief("name", "description", "device_count");

        Model reservation = Model.of("dcim", "rack-reservations", "rack reservation")
                .fields(
                        fk("rack", "dcim.rack").required().cascade(),
                        integerList("units").required().range(0, 32767),
                        computed("unit_count", r -> r.longValue("_unit_count")).renders(Kind.INTEGER),
                        choice("status", RESERVATION_STATUS).dflt("active"),
                        fk("user", "users.user").required().protect(),
                        fk("tenant", "tenancy.tenant").protect(),
                        str("description").required().max(200),
                        str("comments"))
                .standardTail()
                .check(RackModels::unitsFree)
                .placedThrough("rack")
                .select("_unit_count", "cardinality(t.units)")
                .filter(ExtraFilters.single("unit_count_min", Kind.INTEGER, "cardinality({t}.units) >= ?"))
                .filter(ExtraFilters.single("unit_count_max", Kind.INTEGER, "cardinality({t}.units) <= ?"))
                .relationFilter("group", "rack.group", "slug")
                .relationFilter("group_id", "rack.group", "id")
                .relationFilter("user", "user", "username")
                .select("_rack_name", "select r.name from dcim_rack r where r.id = t.rack_id")
                .display(r -> "Reservation for rack " + r.str("_rack_name"))
                .ordering("t.created", "t.id")
                .search(
                        "t.description",
                        "t.comments",
                        "(select u.username from " + SystemTables.USERS_USER + " u where u.id = t.user_id)")
                .brief("units", "status", "user", "description");
        return List.of(rackType, rackRole, rackGroup, rack, reservation);
    }

    /** The physical attributes a rack shares with its rack type (NetBox's RackBase), in NetBox's order. */
    private static Field[] physical() {
        return new Field[] {
            choice("width", RACK_WIDTH).dflt("19"),
            integer("u_height").range(1, 100).dflt(42),
            integer("starting_unit").range(1, 32767).dflt(1),
            bool("desc_units").dflt(false),
            decimal("weight").nullable().range(-999999, 999999),
            integer("max_weight").nullable().range(0, 2147483647),
            choice("weight_unit", WEIGHT_UNIT).nullable(),
            integer("outer_width").nullable().range(0, 32767),
            integer("outer_height").nullable().range(0, 32767),
            integer("outer_depth").nullable().range(0, 32767),
            choice("outer_unit", RACK_DIMENSION_UNIT).nullable(),
            integer("mounting_depth").nullable().range(0, 32767)
        };
    }

    /** Weights and outer dimensions need their unit, with NetBox's messages (WeightMixin/Rack.clean). */
    static void unitsGiven(Row row, Map<String, List<String>> errors) {
        List<String> all = new ArrayList<>();
        if (row.get("weight_unit") == null) {
            if (row.get("weight") != null) {
                all.add("Must specify a unit when setting a weight");
            }
            if (row.get("max_weight") != null) {
                all.add("Must specify a unit when setting a maximum weight");
            }
        }
        if ((row.get("outer_width") != null || row.get("outer_height") != null || row.get("outer_depth") != null)
                && row.get("outer_unit") == null) {
            all.add("Must specify a unit when setting an outer dimension");
        }
        if (!all.isEmpty()) {
            errors.computeIfAbsent("__all__", k -> new ArrayList<>()).addAll(all);
        }
    }

    /** NetBox's RackReservation.clean(): the units exist in the rack and no other reservation holds them. */
    static void unitsFree(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        @SuppressWarnings("unchecked")
        List<Integer> units = (List<Integer>) row.get("units");
        Long rackId = row.longValue("rack_id");
        if (units == null || rackId == null) {
            return;
        }
        Row rack = db.query("select u_height, starting_unit from dcim_rack where id = ?", rackId)
                .get(0);
        long first = rack.longValue("starting_unit");
        long last = first + rack.longValue("u_height") - 1;
        List<Integer> invalid =
                units.stream().filter(u -> u < first || u > last).toList();
        if (!invalid.isEmpty()) {
            errors.computeIfAbsent("units", k -> new ArrayList<>())
                    .add("Invalid unit(s) for " + rack.longValue("u_height") + "U rack: "
                            + invalid.stream().map(String::valueOf).collect(Collectors.joining(", ")));
            return;
        }
        List<Row> taken = db.query(
                "select distinct u from dcim_rackreservation r, unnest(r.units) u where r.rack_id = ?"
                        + " and r.id <> coalesce(?, -1)",
                rackId,
                selfId);
        java.util.Set<Long> reserved = new java.util.HashSet<>();
        taken.forEach(t -> reserved.add(t.longValue("u")));
        List<Integer> conflicting =
                units.stream().filter(u -> reserved.contains(u.longValue())).toList();
        if (!conflicting.isEmpty()) {
            errors.computeIfAbsent("units", k -> new ArrayList<>())
                    .add("The following units have already been reserved: "
                            + conflicting.stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
    }

    /**
     * NetBox's RackType.save(): every rack of the type is saved again, taking the type's new
     * physical attributes (copied by V65's trigger on the rack's update), each with its change record.
     */
    static final class RacksFollowTheirType implements WriteHook {
        @Override
        public List<FollowUp> afterSave(Queries db, Row written, Row changes, Row existing) {
            if (existing == null) {
                return List.of();
            }
            return db.query("select id from dcim_rack where rack_type_id = ? order by id", written.id()).stream()
                    .map(r -> new FollowUp("dcim.rack", r.id(), Map.of("rack_type", written.id())))
                    .toList();
        }
    }

    /** NetBox's Rack.__str__: the name, and the facility id in brackets when there is one. */
    static String rackDisplay(Row r) {
        String facility = r.str("facility_id");
        return facility == null || facility.isEmpty() ? r.str("name") : r.str("name") + " (" + facility + ")";
    }
}
