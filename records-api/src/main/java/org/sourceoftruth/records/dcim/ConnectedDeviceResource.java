package org.sourceoftruth.records.dcim;

import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/** {@code GET /api/dcim/connected-device/?peer_device=&peer_interface=}, as NetBox's ConnectedDeviceViewSet. */
@Path("/api/dcim/connected-device/")
public class ConnectedDeviceResource implements AnswersOptions {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Context
    HttpHeaders headers;

    /** ConnectedDeviceViewSet: the device at the far end of a device's interface, given by names. */
    @GET
    @Operation(hidden = true)
    public Response connectedDevice(
            @QueryParam("peer_device") String peerDevice, @QueryParam("peer_interface") String peerInterface) {
        if (peerDevice == null || peerDevice.isEmpty() || peerInterface == null || peerInterface.isEmpty()) {
            throw ApiException.detail(400, "Request must include \"peer_device\" and \"peer_interface\" filters.");
        }
        Model device = registry.require("dcim.device");
        Model iface = registry.require("dcim.interface");
        access.require(device, Access.Action.VIEW);
        access.require(iface, Access.Action.VIEW);
        long found;
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            // with its wireless link: a wireless interface's path runs across it
            List<Row> rows = db.query(
                    "select i.*, (select w.id from wireless_wirelesslink w where w.interface_a_id = i.id"
                            + " or w.interface_b_id = i.id order by w.id limit 1) as _wireless_link_id from dcim_interface i"
                            + " join dcim_device d on d.id = i.device_id where d.name = ? and i.name = ?",
                    peerDevice,
                    peerInterface);
            if (rows.isEmpty() || !access.permits(db, iface, rows.get(0).id(), Access.Action.VIEW)) {
                throw ApiException.notFound();
            }
            CablePath path = CableLoaders.paths(db, "dcim.interface", rows)
                    .get(rows.get(0).id());
            if (path == null
                    || path.destinations().isEmpty()
                    || !path.destinations().get(0).contentType().equals("dcim.interface")) {
                throw ApiException.notFound();
            }
            found = db.query(
                            "select device_id from dcim_interface where id = ?",
                            path.destinations().get(0).id())
                    .get(0)
                    .longValue("device_id");
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        return Responses.json(
                200,
                service.get(
                                device,
                                found,
                                // DeviceSerializer, not the device view's serializer with the config context
                                new Renderer.Options(
                                        request.baseUrl(),
                                        Renderer.Mode.FULL,
                                        null,
                                        java.util.Set.of("config_context")))
                        .node(),
                headers);
    }
}
