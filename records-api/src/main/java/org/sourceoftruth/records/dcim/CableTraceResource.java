package org.sourceoftruth.records.dcim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * NetBox's cable path actions: {@code trace/} of a path endpoint (interfaces, console and power
 * ports, power outlets and feeds; continued across interface bridges as PathEndpoint.trace()), {@code paths/} of a
 * pass-through port or (virtual) circuit termination,
 * and {@code dcim/connected-device/}. Each reads the stored paths and renders their objects with
 * a query or two per content type, whatever the number of hops.
 */
@Path("/api")
public class CableTraceResource {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Map<String, String> TRACED = Map.of(
            "interfaces",
            "dcim.interface",
            "console-ports",
            "dcim.consoleport",
            "console-server-ports",
            "dcim.consoleserverport",
            "power-ports",
            "dcim.powerport",
            "power-outlets",
            "dcim.poweroutlet",
            "power-feeds",
            "dcim.powerfeed");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    @Inject
    Renderer renderer;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Context
    HttpHeaders headers;

    /** OPTIONS on the trace and paths views (this class's own path, /api, is ApiRootResource's: see {@link AnswersOptions}). */
    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path(
            "dcim/{path: interfaces|console-ports|console-server-ports|power-ports|power-outlets|power-feeds}/{id: [0-9]+}/trace/")
    public Response traceOptions() {
        return AnswersOptions.ok();
    }

    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path(
            "{app: dcim|circuits}/{path: front-ports|rear-ports|circuit-terminations|virtual-circuit-terminations}/{id: [0-9]+}/paths/")
    public Response pathsOptions() {
        return AnswersOptions.ok();
    }

    @GET
    @Path(
            "dcim/{path: interfaces|console-ports|console-server-ports|power-ports|power-outlets|power-feeds}/{id: [0-9]+}/trace/")
    @Operation(hidden = true)
    public Response trace(@PathParam("path") String path, @PathParam("id") long id) {
        Model model = viewable(TRACED.get(path), id);
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            Row row = RowLoader.load(db, model, id, false);
            List<CablePath> chain = new ArrayList<>();
            CablePath cablePath =
                    CableLoaders.paths(db, model.contentType(), List.of(row)).get(id);
            Set<Long> bridged = new HashSet<>();
            while (cablePath != null) {
                chain.add(cablePath);
                cablePath = bridgedPath(db, cablePath, bridged);
            }
            ArrayNode out = NODES.arrayNode();
            PathNodes nodes = new PathNodes(db, registry, renderer, request.baseUrl(), chain);
            Model cable = registry.require("dcim.cable");
            Model wireless = registry.require("wireless.wirelesslink");
            trace:
            for (CablePath p : chain) {
                for (List<List<String>> segment : PathNodes.segments(p)) {
                    JsonNode near = nodes.list(segment.get(0));
                    if (near.isEmpty()) {
                        break trace; // a split path: NetBox's trace view stops here
                    }
                    ArrayNode s = out.addArray();
                    s.add(near);
                    s.add(nodes.cable(segment.get(1), cable, wireless, request.baseUrl()));
                    s.add(nodes.list(segment.get(2)));
                }
            }
            return Responses.json(200, out, headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /**
     * PathEndpoint.trace() goes on from a path's single destination when it is an interface with a
     * bridge: with the path of that bridge interface. Null when the trace ends; an interface seen
     * before ends it too (NetBox would loop forever on bridges that lead back).
     */
    private static CablePath bridgedPath(Db db, CablePath path, Set<Long> bridged) {
        List<org.sourceoftruth.records.model.ObjectRef> ends = path.destinations();
        if (ends.size() != 1 || !ends.get(0).contentType().equals("dcim.interface")) {
            return null;
        }
        List<Row> bridge = db.query(
                "select b.id from dcim_interface i join dcim_interface b on b.id = i.bridge_id" + " where i.id = ?",
                ends.get(0).id());
        if (bridge.isEmpty() || !bridged.add(bridge.get(0).id())) {
            return null;
        }
        return CableLoaders.pathFrom(db, "dcim.interface:" + bridge.get(0).id());
    }

    @GET
    @Path(
            "{app: dcim|circuits}/{path: front-ports|rear-ports|circuit-terminations|virtual-circuit-terminations}/{id: [0-9]+}/paths/")
    @Operation(hidden = true)
    public Response paths(@PathParam("app") String app, @PathParam("path") String path, @PathParam("id") long id) {
        String type = switch (path) {
            case "front-ports" -> "dcim.frontport";
            case "rear-ports" -> "dcim.rearport";
            // NetBox's VirtualCircuitTerminationViewSet has the PassThroughPortMixin too: the
            // stored paths through the object. No cable ends on a virtual circuit termination, so
            // no traced path passes one and the list is empty, as NetBox's is.
            case "virtual-circuit-terminations" -> "circuits.virtualcircuittermination";
            default -> "circuits.circuittermination";
        };
        if (!registry.require(type).app().equals(app)) {
            throw ApiException.notFound();
        }
        viewable(type, id);
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<CablePath> paths = new ArrayList<>();
            List<Long> ids = new ArrayList<>();
            for (Row r : db.query(
                    "select * from dcim_cablepath where nodes @> array[?]::text[] order by id", type + ":" + id)) {
                paths.add(CablePath.of(r));
                ids.add(r.id());
            }
            PathNodes nodes = new PathNodes(db, registry, renderer, request.baseUrl(), paths);
            ArrayNode out = NODES.arrayNode();
            for (int i = 0; i < paths.size(); i++) {
                CablePath p = paths.get(i);
                ObjectNode o = out.addObject();
                o.put("id", ids.get(i));
                ArrayNode steps = o.putArray("path");
                p.steps().forEach(step -> steps.add(nodes.list(step)));
                o.put("is_active", p.active());
                o.put("is_complete", p.complete());
                o.put("is_split", p.split());
            }
            return Responses.json(200, out, headers);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** The model, when the caller may view it and the object: else 403 or 404 as the detail view answers. */
    private Model viewable(String contentType, long id) {
        Model model = registry.require(contentType);
        access.require(model, Access.Action.VIEW);
        service.get(model, id, Renderer.Options.full(""));
        return model;
    }
}
