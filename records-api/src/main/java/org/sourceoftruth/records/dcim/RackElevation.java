package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * {@code GET /api/dcim/racks/<id>/elevation/} as NetBox's RackViewSet.elevation: the rack's units
 * of one face, top to bottom, each with the device in it (NetBox's get_rack_units and
 * RackUnitSerializer), paginated; or with {@code ?render=svg} a drawing of that face.
 */
@Path("/api/dcim/racks/{id: [0-9]+}/elevation/")
public class RackElevation implements AnswersOptions {
    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RequestContext request;

    @Inject
    ApiConfig config;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    /** One unit of the face: its number, the device in it (null when none or not viewable), whether it is taken. */
    record Unit(BigDecimal id, String name, String face, JsonNode device, boolean occupied, BigDecimal height) {}

    /** The query parameters of NetBox's RackElevationDetailFilterSerializer. */
    record Params(
            String face,
            boolean svg,
            Long exclude,
            boolean expandDevices,
            boolean includeImages,
            String q,
            Integer unitWidth,
            Integer unitHeight,
            int legendWidth,
            int marginWidth) {}

    @GET
    @Operation(hidden = true) // described by RackElevationDocumentation
    public Response get(@PathParam("id") long id) {
        Model rackModel = registry.require("dcim.rack");
        access.require(rackModel, Access.Action.VIEW);
        Params p = params(uri.getQueryParameters());
        JsonNode rack = service.get(rackModel, id, Renderer.Options.full(request.baseUrl()))
                .node();
        if (p.svg()) {
            // the drawing always shows every unit a device takes
            List<Unit> units = units(
                    id,
                    rack,
                    new Params(
                            p.face(),
                            true,
                            p.exclude(),
                            true,
                            p.includeImages(),
                            p.q(),
                            p.unitWidth(),
                            p.unitHeight(),
                            p.legendWidth(),
                            p.marginWidth()));
            String svg = RackElevationSvg.render(rack, units, p, request.baseUrl());
            return Response.ok(svg, "image/svg+xml").build();
        }
        List<Unit> units = units(id, rack, p);
        if (p.q() != null) {
            units = units.stream()
                    .filter(u -> u.id().toPlainString().contains(p.q()))
                    .toList();
        }
        return Responses.json(200, page(units, p), headers);
    }

    private Params params(Map<String, List<String>> q) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        String face = first(q, "face", "front");
        if (!face.equals("front") && !face.equals("rear")) {
            errors.put("face", List.of("\"" + face + "\" is not a valid choice."));
        }
        String render = first(q, "render", "json");
        if (!render.equals("json") && !render.equals("svg")) {
            errors.put("render", List.of("\"" + render + "\" is not a valid choice."));
        }
        Map<String, Integer> numbers = new HashMap<>();
        for (String name : List.of("exclude", "unit_width", "unit_height", "legend_width", "margin_width")) {
            String raw = first(q, name, null);
            if (raw != null && !raw.isEmpty()) {
                try {
                    numbers.put(name, Integer.parseInt(raw.trim()));
                } catch (NumberFormatException e) {
                    errors.put(name, List.of("A valid integer is required."));
                }
            }
        }
        Map<String, Boolean> flags = new HashMap<>();
        for (String name : List.of("expand_devices", "include_images")) {
            String raw = first(q, name, "true").trim().toLowerCase(Locale.ROOT);
            if (Set.of("true", "1", "yes", "on", "t", "y").contains(raw)) {
                flags.put(name, true);
            } else if (Set.of("false", "0", "no", "off", "f", "n").contains(raw)) {
                flags.put(name, false);
            } else {
                errors.put(name, List.of("Must be a valid boolean."));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.fields(errors);
        }
        Integer exclude = numbers.get("exclude");
        String text = first(q, "q", null);
        return new Params(
                face,
                render.equals("svg"),
                exclude == null ? null : exclude.longValue(),
                flags.get("expand_devices"),
                flags.get("include_images"),
                text == null || text.isEmpty() ? null : text,
                numbers.get("unit_width"),
                numbers.get("unit_height"),
                numbers.getOrDefault("legend_width", 30),
                numbers.getOrDefault("margin_width", 15));
    }

    private static String first(Map<String, List<String>> q, String name, String dflt) {
        List<String> v = q.get(name);
        return v == null || v.isEmpty() ? dflt : v.get(v.size() - 1);
    }

    /** NetBox's Rack.get_rack_units: every unit of the face, devices of that face and full-depth ones in theirs. */
    private List<Unit> units(long rackId, JsonNode rack, Params p) {
        List<BigDecimal> numbers = RackSpace.units(
                rack.path("u_height").asLong(),
                rack.path("starting_unit").asLong(),
                rack.path("desc_units").asBoolean());
        List<Row> devices;
        try (Connection c = dataSource.getConnection()) {
            devices = new Db(c)
                    .query(
                            "select d.id, d.position, dt.u_height from dcim_device d join dcim_devicetype dt"
                                    + " on dt.id = d.device_type_id where d.rack_id = ? and d.position > 0 and dt.u_height > 0"
                                    + " and (d.face = ? or dt.is_full_depth) and d.id <> coalesce(?, -1) order by d.position",
                            rackId,
                            p.face(),
                            p.exclude());
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        Map<Long, JsonNode> viewable = viewableDevices(devices);
        Map<BigDecimal, Unit> byNumber = new LinkedHashMap<>();
        for (BigDecimal u : numbers) {
            String name = "U"
                    + (u.stripTrailingZeros().scale() <= 0 ? u.toBigInteger().toString() : u.toPlainString());
            byNumber.put(u, new Unit(u, name, p.face(), null, false, null));
        }
        for (Row d : devices) {
            JsonNode node = viewable.get(d.id());
            BigDecimal position = d.decimal("position").setScale(1);
            BigDecimal height = d.decimal("u_height");
            List<BigDecimal> taken = p.expandDevices() ? RackSpace.taken(position, height) : List.of(position);
            for (BigDecimal u : taken) {
                Unit unit = byNumber.get(u);
                if (unit != null) {
                    byNumber.put(
                            u, new Unit(u, unit.name(), unit.face(), node, true, p.expandDevices() ? null : height));
                }
            }
        }
        return new ArrayList<>(byNumber.values());
    }

    /** The devices the caller may view, in their brief form (the others occupy their units unnamed, as NetBox). */
    private Map<Long, JsonNode> viewableDevices(List<Row> devices) {
        Map<Long, JsonNode> out = new HashMap<>();
        if (devices.isEmpty()) {
            return out;
        }
        Model deviceModel = registry.require("dcim.device");
        if (!access.allows(deviceModel, Access.Action.VIEW)) {
            return out;
        }
        List<String> ids = devices.stream().map(d -> String.valueOf(d.id())).toList();
        Renderer.Options brief = new Renderer.Options(request.baseUrl(), Renderer.Mode.BRIEF, null, Set.of());
        ListQuery.Page page = service.list(
                deviceModel, Map.of("id", ids), brief, new ListQuery.PageRequest((long) ids.size(), 0, null));
        page.results().forEach(n -> out.put(n.path("id").asLong(), n));
        return out;
    }

    /** NetBox's limit/offset page of the units, {count, next, previous, results}. */
    private ObjectNode page(List<Unit> units, Params p) {
        Map<String, List<String>> q = uri.getQueryParameters();
        long limit = parse(first(q, "limit", null), config.paginateCount());
        if (limit <= 0) {
            limit = config.maxPageSize() > 0 ? config.maxPageSize() : units.size();
        }
        if (config.maxPageSize() > 0) {
            limit = Math.min(limit, config.maxPageSize());
        }
        long offset = Math.max(0, parse(first(q, "offset", null), 0));
        ObjectNode env = Json.MAPPER.createObjectNode();
        env.put("count", units.size());
        String base = request.baseUrl() + uri.getPath();
        env.put(
                "next",
                offset + limit < units.size()
                        ? base + "?limit=" + limit + "&offset=" + (offset + limit) + extra(q)
                        : null);
        env.put(
                "previous",
                offset <= 0
                        ? null
                        : base + "?limit=" + limit + (offset - limit > 0 ? "&offset=" + (offset - limit) : "")
                                + extra(q));
        ArrayNode results = env.putArray("results");
        for (Unit u :
                units.subList((int) Math.min(offset, units.size()), (int) Math.min(offset + limit, units.size()))) {
            ObjectNode n = results.addObject();
            n.put("id", u.id());
            n.put("name", u.name());
            n.putObject("face").put("value", u.face()).put("label", u.face().equals("front") ? "Front" : "Rear");
            n.set("device", u.device() == null ? n.nullNode() : u.device());
            n.put("occupied", u.occupied());
            if (u.height() != null) {
                n.put("height", u.height());
            }
            n.put("display", u.name());
        }
        return env;
    }

    private static long parse(String raw, long dflt) {
        try {
            return raw == null ? dflt : Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /** The request's other parameters, kept in the page links. */
    private static String extra(Map<String, List<String>> q) {
        StringBuilder sb = new StringBuilder();
        new java.util.TreeMap<>(q).forEach((k, vs) -> {
            if (!k.equals("limit") && !k.equals("offset")) {
                vs.forEach(v -> sb.append('&')
                        .append(java.net.URLEncoder.encode(k, java.nio.charset.StandardCharsets.UTF_8))
                        .append('=')
                        .append(java.net.URLEncoder.encode(v, java.nio.charset.StandardCharsets.UTF_8)));
            }
        });
        return sb.toString();
    }
}
