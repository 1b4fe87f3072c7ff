package org.sourceoftruth.records.dcim;

import static org.sourceoftruth.records.dcim.CableChoices.*;
import static org.sourceoftruth.records.model.Declarations.*;
import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/**
 * dcim cables and cable terminations (NetBox's dcim.Cable and dcim.CableTermination). A cable is
 * written with its ends ({@code a_terminations}, {@code b_terminations}) and may have a profile
 * ({@link CableProfiles}); each object on an end is a cable termination, on a connector of the
 * profile with its lanes, created and deleted through the engine with its change record
 * ({@link CableHooks}), which keeps the cabled objects' {@code cable} and the traced paths up to
 * date. Terminations are read-only through the API, as in NetBox 4.5.
 */
@ApplicationScoped
public class CableModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model cable = Model.of("dcim", "cables", "cable")
                .fields(
                        plainChoice("type", CABLE_TYPE).nullable().dflt(null),
                        json("a_terminations").requestOnly().loader(CableLoaders.cableEnd("A")),
                        json("b_terminations").requestOnly().loader(CableLoaders.cableEnd("B")),
                        choice("status", LINK_STATUS).dflt("connected"),
                        // null for none: NetBox stores "" and renders null
                        choice("profile", CableProfiles.CHOICES).nullable().dflt(null),
                        fk("tenant", "tenancy.tenant").protect(),
                        fk("bundle", "dcim.cablebundle"),
                        str("label").max(100),
                        str("color").max(6).pattern(COLOR, COLOR_MESSAGE),
                        decimal("length").nullable().range(-999999, 999999),
                        choice("length_unit", LENGTH_UNIT).nullable(),
                        str("description").max(200),
                        str("comments"))
                .standardTail()
                .display(r -> r.str("label") == null || r.str("label").isEmpty() ? "#" + r.id() : r.str("label"))
                .check(CableEnds::check)
                .hook(new CableHooks.OnCable())
                .filters(cableFilters())
                .ordering("t.id")
                .search("t.label", "t.description")
                .brief("label", "description");

        Model termination = Model.of("dcim", "cable-terminations", "cable termination")
                .noDisplayUrl()
                // NetBox 4.5: read-only, written only by the cable (its a_terminations and b_terminations)
                .writtenWith("dcim.cable")
                .fields(
                        fk("cable", "dcim.cable")
                                .required()
                                .cascade()
                                .renderedAsId()
                                .noFilter(),
                        plainChoice("cable_end", org.sourceoftruth.records.dcim.DcimChoices.CABLE_END)
                                .required(),
                        genericFk("termination", "termination_type", "termination_id", TERMINATION_TYPES)
                                .notNull()
                                .cascade(),
                        // the connector of the cable's profile the object is on, and its lanes
                        integer("connector").nullable().range(1, 256).noFilter(),
                        integerList("positions").nullable().range(1, 1024).noFilter())
                .timestamps()
                .select(
                        "_cable",
                        "select coalesce(nullif(c.label, ''), '#' || c.id) from dcim_cable c where c.id = t.cable_id")
                .display(r ->
                        "Cable " + r.str("_cable") + " to " + r.str("termination_type") + " " + r.str("termination_id"))
                .check((db, row, selfId, errors) -> {
                    String problem = CableEnds.problem(
                            db,
                            new org.sourceoftruth.records.model.ObjectRef(
                                    row.str("termination_type"), row.longValue("termination_id")),
                            row.longValue("cable_id"),
                            selfId == null ? -1L : selfId);
                    if (problem != null) {
                        errors.computeIfAbsent("__all__", k -> new ArrayList<>())
                                .add(problem);
                    }
                })
                .hook(new CableHooks.OnTermination())
                .filter(ExtraFilters.each("cable", Kind.INTEGER, "{t}.cable_id = ?"))
                .filter(ExtraFilters.each("cable_id", Kind.INTEGER, "{t}.cable_id = ?")
                        .choicesFrom("dcim_cable", "id"))
                .filters(terminationFilters())
                .ordering("t.cable_id", "t.cable_end", "t.connector")
                .brief("cable", "cable_end", "termination_type", "termination_id", "connector", "positions");
        return List.of(cable, termination);
    }

    /** CableTerminationFilterSet's filters by the object: {@code interface_id}, {@code frontport_id}, ... */
    private static List<ExtraFilter> terminationFilters() {
        List<ExtraFilter> out = new ArrayList<>();
        for (String type : TERMINATION_TYPES) {
            out.add(ExtraFilters.each(
                    modelName(type) + "_id",
                    Kind.INTEGER,
                    "{t}.termination_type = '" + type + "' and {t}.termination_id = ?"));
        }
        return out;
    }

    /** CableFilterSet: by the ends' place (site, rack, location, device), type and object. */
    private static List<ExtraFilter> cableFilters() {
        List<ExtraFilter> out = new ArrayList<>();
        String byTermination = "{t}.id in (select ct.cable_id from dcim_cabletermination ct where ";
        out.add(ExtraFilters.each("site_id", Kind.INTEGER, byTermination + "ct._site_id = ?)"));
        out.add(ExtraFilters.each(
                "site", Kind.STRING, byTermination + "ct._site_id in (select id from dcim_site where slug = ?))"));
        out.add(ExtraFilters.each("location_id", Kind.INTEGER, byTermination + "ct._location_id = ?)"));
        out.add(ExtraFilters.each(
                "location",
                Kind.STRING,
                byTermination + "ct._location_id in (select id from dcim_location where slug = ?))"));
        out.add(ExtraFilters.each("rack_id", Kind.INTEGER, byTermination + "ct._rack_id = ?)"));
        out.add(ExtraFilters.each(
                "rack", Kind.STRING, byTermination + "ct._rack_id in (select id from dcim_rack where name = ?))"));
        out.add(ExtraFilters.each("device_id", Kind.INTEGER, byTermination + "ct._device_id = ?)"));
        out.add(ExtraFilters.each(
                "device",
                Kind.STRING,
                byTermination + "ct._device_id in (select id from dcim_device where name = ?))"));
        for (String end : List.of("a", "b")) {
            String side = "ct.cable_end = '" + end.toUpperCase() + "' and ";
            out.add(ExtraFilters.each(
                    "termination_" + end + "_type", Kind.STRING, byTermination + side + "ct.termination_type = ?)"));
            out.add(ExtraFilters.each(
                    "termination_" + end + "_id", Kind.INTEGER, byTermination + side + "ct.termination_id = ?)"));
        }
        for (String type : TERMINATION_TYPES) {
            out.add(ExtraFilters.each(
                    modelName(type) + "_id",
                    Kind.INTEGER,
                    byTermination + "ct.termination_type = '" + type + "' and ct.termination_id = ?)"));
        }
        out.add(ExtraFilters.bool(
                "unterminated",
                "({t}.id not in (select cable_id from dcim_cabletermination where cable_end = 'A')"
                        + " or {t}.id not in (select cable_id from dcim_cabletermination where cable_end = 'B'))",
                "({t}.id in (select cable_id from dcim_cabletermination where cable_end = 'A')"
                        + " and {t}.id in (select cable_id from dcim_cabletermination where cable_end = 'B'))"));
        return out;
    }
}
