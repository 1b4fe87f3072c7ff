package org.sourceoftruth.records.ipam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.RequestContext;

/**
 * The one skeleton of NetBox's "available-*" actions (available IPs and prefixes, ASNs, VLANs):
 * reading what is free in a pool, and handing it out race-free. An allocation runs in one
 * transaction that first takes a transaction-level advisory lock of its kind (as NetBox's
 * {@code @advisory_lock}, so that pools that overlap cannot hand out the same value), then locks
 * the pool's row FOR UPDATE, plans the objects to create from what is free now, and creates them
 * through the engine with the normal validation, change records and events. Concurrent requests
 * therefore queue, and each sees what the previous one took.
 */
@ApplicationScoped
public class Allocation {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * A kind of pool: its advisory lock key (an arbitrary constant per kind), its table, and the
     * class name NetBox's 404 names ("No VLANGroup matches the given query.").
     */
    public record Pool(long lockKey, String table, String className) {}

    /** What to create from the locked pool row; may throw an {@link ApiException} (400, 409). */
    @FunctionalInterface
    public interface Plan {
        List<JsonNode> objects(Db db, Row pool);
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Renderer renderer;

    @Inject
    RequestContext request;

    /** Runs a read of free values on a connection of its own. */
    public <T> T read(Function<Db, T> reading) {
        try (Connection c = dataSource.getConnection()) {
            return reading.apply(new Db(c));
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** Creates the objects of {@code contentType} that {@code plan} makes of pool {@code id}, under the pool's locks. */
    @Transactional
    public List<RenderedObject> allocate(Pool pool, long id, String contentType, boolean bulk, Plan plan) {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            db.query("select pg_advisory_xact_lock(?)", pool.lockKey());
            List<JsonNode> objects = plan.objects(db, row(db, pool, id, true));
            return service.create(registry.require(contentType), objects, bulk);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** The pool's row (locked FOR UPDATE when asked), or NetBox's 404. */
    public static Row row(Db db, Pool pool, long id, boolean lock) {
        List<Row> rows = db.query("select * from " + pool.table() + " where id = ?" + (lock ? " for update" : ""), id);
        if (rows.isEmpty()) {
            throw ApiException.detail(404, "No " + pool.className() + " matches the given query.");
        }
        return rows.get(0);
    }

    /** NetBox's 409 when the pool has too few free values; {@code detail} is the view's own wording. */
    public static ApiException insufficient(String detail) {
        return ApiException.detail(409, detail);
    }

    /** What a request item's check reads from it (null when it failed). */
    public interface ItemCheck<T> {
        T check(JsonNode item, Map<String, List<String>> errors);
    }

    /**
     * Checks every requested object: each must be a dictionary, then {@code check} reads what it
     * needs. Errors come back as a list aligned with the request, as NetBox's many=True request
     * serializer answers.
     */
    public static <T> List<T> checkEach(List<JsonNode> items, ItemCheck<T> check) {
        List<T> out = new ArrayList<>();
        List<Map<String, List<String>>> all = new ArrayList<>();
        boolean failed = false;
        for (JsonNode item : items) {
            Map<String, List<String>> errors = new LinkedHashMap<>();
            if (!item.isObject()) {
                errors.put(
                        "non_field_errors",
                        List.of("Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(item) + "."));
                out.add(null);
            } else {
                out.add(check.check(item, errors));
            }
            failed |= !errors.isEmpty();
            all.add(errors);
        }
        if (failed) {
            var arr = NODES.arrayNode();
            all.forEach(e -> arr.add(ApiException.errorsNode(e)));
            throw new ApiException(400, arr);
        }
        return out;
    }

    /** The object {@code id} of {@code contentType} in its nested (brief) form, or JSON null. */
    public JsonNode nested(Db db, String contentType, Long id) {
        if (id == null) {
            return NODES.nullNode();
        }
        Model model = registry.require(contentType);
        List<Row> rows = db.query(model.selectFrom() + " where t.id = ?", id);
        return rows.isEmpty()
                ? NODES.nullNode()
                : renderer.render(
                                db,
                                model,
                                rows,
                                new Renderer.Options(request.baseUrl(), Renderer.Mode.NESTED, null, Set.of()))
                        .get(0);
    }
}
