package org.sourceoftruth.records.dcim;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.DbValidator;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;

/**
 * A rack's units and the space its devices take (NetBox's Rack.units, get_available_units and the
 * rack checks of Device.clean and Rack.clean), in half units.
 */
final class RackSpace {
    static final BigDecimal HALF = new BigDecimal("0.5");

    private RackSpace() {}

    /** The rack's units top to bottom, half units included (NetBox's Rack.units). */
    static List<BigDecimal> units(long uHeight, long startingUnit, boolean descending) {
        List<BigDecimal> out = new ArrayList<>();
        BigDecimal low = BigDecimal.valueOf(startingUnit);
        BigDecimal high = BigDecimal.valueOf(startingUnit + uHeight).subtract(HALF);
        for (BigDecimal u = high; u.compareTo(low) >= 0; u = u.subtract(HALF)) {
            out.add(u.setScale(1));
        }
        if (descending) {
            java.util.Collections.reverse(out);
        }
        return out;
    }

    /** The half units a device of {@code height} takes from {@code position} up. */
    static List<BigDecimal> taken(BigDecimal position, BigDecimal height) {
        List<BigDecimal> out = new ArrayList<>();
        for (BigDecimal u = position; u.compareTo(position.add(height)) < 0; u = u.add(HALF)) {
            out.add(u.setScale(1));
        }
        return out;
    }

    /** NetBox's Device.clean() rules on rack, face and position. */
    static void devicePlacement(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        Long rackId = row.longValue("rack_id");
        BigDecimal position = row.decimal("position");
        String face = row.str("face");
        if (rackId == null) {
            if (face != null && !face.isEmpty()) {
                error(errors, "face", "Cannot select a rack face without assigning a rack.");
            } else if (position != null && position.signum() != 0) {
                error(errors, "position", "Cannot select a rack position without assigning a rack.");
            }
            return;
        }
        if (position == null || position.signum() == 0) {
            return;
        }
        if (position.remainder(HALF).signum() != 0) {
            error(errors, "position", "Position must be in increments of 0.5 rack units.");
            return;
        }
        if (face == null || face.isEmpty()) {
            error(errors, "face", "Must specify rack face when defining rack position.");
            return;
        }
        Row type = db.query(
                        "select model, u_height, is_full_depth, subdevice_role from dcim_devicetype where id = ?",
                        row.longValue("device_type_id"))
                .get(0);
        BigDecimal height = type.decimal("u_height");
        if (height.signum() == 0) {
            error(
                    errors,
                    "position",
                    "A 0U device type (" + type.str("model") + ") cannot be assigned to a rack position.");
            return;
        }
        if ("child".equals(type.str("subdevice_role"))) {
            error(
                    errors,
                    "face",
                    "Child device types cannot be assigned to a rack face. This is an attribute of the"
                            + " parent device.");
            return;
        }
        boolean fullDepth = Boolean.TRUE.equals(type.get("is_full_depth"));
        Set<BigDecimal> free = freeUnits(db, rackId, fullDepth ? null : face, selfId);
        if (!free.containsAll(taken(position, height))) {
            error(
                    errors,
                    "position",
                    "U" + position.setScale(1) + " is already occupied or does not have sufficient"
                            + " space to accommodate this device type: " + type.str("model") + " (" + height.setScale(1)
                            + "U)");
        }
    }

    /**
     * The rack's units no other device takes on {@code face} (null: on either face), full-depth
     * devices taking both faces.
     */
    private static Set<BigDecimal> freeUnits(Queries db, long rackId, String face, Long exclude) {
        Row rack = db.query("select u_height, starting_unit, desc_units from dcim_rack where id = ?", rackId)
                .get(0);
        Set<BigDecimal> free =
                new LinkedHashSet<>(units(rack.longValue("u_height"), rack.longValue("starting_unit"), false));
        for (Row d : db.query(
                "select d.position, d.face, dt.u_height, dt.is_full_depth from dcim_device d join"
                        + " dcim_devicetype dt on dt.id = d.device_type_id where d.rack_id = ? and d.position >= 1"
                        + " and d.id <> coalesce(?, -1)",
                rackId,
                exclude)) {
            if (face == null || face.equals(d.str("face")) || Boolean.TRUE.equals(d.get("is_full_depth"))) {
                taken(d.decimal("position"), d.decimal("u_height")).forEach(free::remove);
            }
        }
        return free;
    }

    /**
     * NetBox's DeviceType.clean() on update: a taller type must still fit wherever its devices
     * are racked, and a type with racked devices cannot become 0U.
     *
     * @param device the device model (its rows' display names the device in the message)
     */
    static DbValidator typeHeightFitsItsDevices(Model device) {
        return (db, row, selfId, errors) -> {
            if (selfId == null) {
                return;
            }
            BigDecimal height = row.decimal("u_height");
            BigDecimal was = db.query("select u_height from dcim_devicetype where id = ?", selfId)
                    .get(0)
                    .decimal("u_height");
            if (height.compareTo(was) > 0) {
                boolean fullDepth = Boolean.TRUE.equals(row.get("is_full_depth"));
                for (Row d : db.query(
                        device.selectFrom() + " where t.device_type_id = ? and t.position is not null"
                                + " order by t.id",
                        selfId)) {
                    long rackId = d.longValue("rack_id");
                    if (!freeUnits(db, rackId, fullDepth ? null : d.str("face"), d.id())
                            .containsAll(taken(d.decimal("position"), height))) {
                        Row rack = db.query("select name, facility_id from dcim_rack where id = ?", rackId)
                                .get(0);
                        error(
                                errors,
                                "u_height",
                                "Device " + device.display(d) + " in rack " + RackModels.rackDisplay(rack)
                                        + " does not have sufficient space to accommodate a height of "
                                        + height.setScale(1) + "U");
                        return;
                    }
                }
            } else if (was.signum() > 0 && height.signum() == 0) {
                long racked = ((Number) db.query(
                                        "select count(*) as n from dcim_device where device_type_id = ?"
                                                + " and position is not null",
                                        selfId)
                                .get(0)
                                .get("n"))
                        .longValue();
                if (racked > 0) {
                    error(
                            errors,
                            "u_height",
                            "Unable to set 0U height: Found <a href=\"/dcim/devices/?manufacturer_id="
                                    + row.longValue("manufacturer_id") + "&device_type_id=" + selfId + "\">" + racked
                                    + " instances</a> already mounted within racks.");
                }
            }
        };
    }

    /** NetBox's Rack.clean() on update: the rack still houses its mounted devices. */
    static void rackHoldsItsDevices(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        if (selfId == null) {
            return;
        }
        long uHeight = row.longValue("u_height");
        long startingUnit = row.longValue("starting_unit");
        String heightField = "u_height";
        String startField = "starting_unit";
        if (row.get("rack_type_id") != null) {
            Row rt = db.query(
                            "select u_height, starting_unit from dcim_racktype where id = ?",
                            row.longValue("rack_type_id"))
                    .get(0);
            uHeight = rt.longValue("u_height");
            startingUnit = rt.longValue("starting_unit");
            heightField = startField = "rack_type";
        }
        List<Row> mounted = db.query(
                "select d.position, dt.u_height from dcim_device d join dcim_devicetype dt"
                        + " on dt.id = d.device_type_id where d.rack_id = ? and d.position is not null order by d.position",
                selfId);
        if (mounted.isEmpty()) {
            return;
        }
        Row top = mounted.get(mounted.size() - 1);
        BigDecimal minHeight =
                top.decimal("position").add(top.decimal("u_height")).subtract(BigDecimal.valueOf(startingUnit));
        if (BigDecimal.valueOf(uHeight).compareTo(minHeight) < 0) {
            error(
                    errors,
                    heightField,
                    "Rack must be at least " + minHeight.stripTrailingZeros().toPlainString()
                            + "U tall to house currently installed devices.");
            return;
        }
        BigDecimal lowest = mounted.get(0).decimal("position");
        if (BigDecimal.valueOf(startingUnit).compareTo(lowest) > 0) {
            error(
                    errors,
                    startField,
                    "Rack unit numbering must begin at " + lowest.setScale(1)
                            + " or less to house currently installed devices.");
        }
    }

    private static void error(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }
}
