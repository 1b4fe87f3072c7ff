package org.sourceoftruth.records.auth;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jboss.logging.Logger;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * Who may do what, as NetBox decides it:
 * <ul>
 *   <li>Anonymous callers may only read models listed in EXEMPT_VIEW_PERMISSIONS, and only when
 *       LOGIN_REQUIRED is off; otherwise they get 403 "Authentication credentials were not provided."</li>
 *   <li>Writes need a write-enabled token (or a session) and are refused with 503 in maintenance mode.</li>
 *   <li>Superusers may do everything. Other users need an enabled object permission (their own,
 *       a group's, or a DEFAULT_PERMISSIONS entry) whose object types and actions cover the
 *       request; its constraints then limit the objects ({@link #restriction}).</li>
 * </ul>
 */
@ApplicationScoped
public class Access {
    private static final Logger LOG = Logger.getLogger(Access.class);
    /** A restriction that matches no object. */
    private static final ExtraFilter.Sql NOTHING = ExtraFilter.Sql.of("false");
    /**
     * Sensitive models a "*" view exemption leaves out (NetBox's EXEMPT_EXCLUDE_MODELS); they
     * are exempt only when listed by name.
     */
    private static final Set<String> WILDCARD_EXCLUDED =
            Set.of("users.user", "users.group", "users.objectpermission", "users.token");

    /** The four model actions; HTTP GET/HEAD → view, POST → add, PUT/PATCH → change, DELETE → delete. */
    public enum Action {
        VIEW,
        ADD,
        CHANGE,
        DELETE;

        /** The permission action name ("view", ...). */
        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Inject
    RequestContext request;

    @Inject
    AuthSettings settings;

    @Inject
    CallerPermissions permissions;

    @Inject
    ConstraintCompiler constraints;

    @Inject
    AgroalDataSource dataSource;

    /** Model-level check before any work (NetBox's TokenPermissions): throws 403 or 503. */
    public void require(Model model, Action action) {
        RequestContext.Caller caller = request.caller();
        boolean read = action == Action.VIEW;
        if (caller == null) {
            if (read && !settings.loginRequired() && isExempt(model)) {
                return;
            }
            throw notAuthenticated();
        }
        if (!read && !caller.writeEnabled()) {
            throw ApiException.forbidden();
        }
        if (!holds(caller, model, action.code())) {
            throw ApiException.forbidden();
        }
        if (!read) {
            requireWritable();
        }
    }

    /** Whether {@link #require} would let the caller do this (OPTIONS shows write actions only then). */
    public boolean allows(Model model, Action action) {
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            return action == Action.VIEW && !settings.loginRequired() && isExempt(model);
        }
        boolean read = action == Action.VIEW;
        return (read || (caller.writeEnabled() && !settings.maintenanceMode())) && holds(caller, model, action.code());
    }

    /** Endpoints that are not about one model (status, OPTIONS): a caller, unless LOGIN_REQUIRED is off. */
    public void requireAuthenticated() {
        if (request.caller() == null && settings.loginRequired()) {
            throw notAuthenticated();
        }
    }

    /** Endpoints for superusers only (NetBox's IsSuperuser): 403 for anyone else. */
    public void requireSuperuser() {
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            throw notAuthenticated();
        }
        if (!caller.superuser()) {
            throw ApiException.forbidden();
        }
    }

    /** Writes are refused while MAINTENANCE_MODE is on. */
    public void requireWritable() {
        if (settings.maintenanceMode()) {
            throw ApiException.detail(
                    503,
                    "The service is in maintenance mode and cannot perform write operations."
                            + " Please try again later.");
        }
    }

    /** Whether the caller holds a permission for the action on the model, whatever its constraints. */
    public boolean holds(Model model, String action) {
        RequestContext.Caller caller = request.caller();
        return caller != null && holds(caller, model, action);
    }

    private boolean holds(RequestContext.Caller caller, Model model, String action) {
        return caller.superuser()
                || (action.equals("view") && isExempt(model))
                || !permissions
                        .covering(caller.userId(), model.contentType(), action)
                        .isEmpty();
    }

    public ExtraFilter.Sql restriction(Model model, Action action) {
        return restriction(model, action.code());
    }

    /**
     * The objects of {@code model} the caller may act on, as a predicate over alias {@code t}:
     * the constraints of every covering permission ORed, or {@code null} when nothing limits
     * the caller (superuser, exempt view, or a covering permission without constraints).
     */
    public ExtraFilter.Sql restriction(Model model, String action) {
        RequestContext.Caller caller = request.caller();
        if (caller != null && caller.superuser()) {
            return null;
        }
        if (action.equals("view") && isExempt(model)) {
            return null;
        }
        if (caller == null) {
            return NOTHING;
        }
        List<String> alternatives = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (CallerPermissions.Grant g : permissions.covering(caller.userId(), model.contentType(), action)) {
            ExtraFilter.Sql sql;
            try {
                sql = constraints.compile(model, g.constraints(), caller.userId());
            } catch (ConstraintCompiler.InvalidConstraint e) {
                // A constraint that does not fit the model grants nothing (NetBox's query would fail).
                LOG.warnf(
                        "ignoring permission constraints %s on %s: %s",
                        g.constraints(), model.contentType(), e.getMessage());
                continue;
            }
            if (sql == null) {
                return null;
            }
            alternatives.add("(" + sql.sql() + ")");
            params.addAll(sql.params());
        }
        return alternatives.isEmpty() ? NOTHING : new ExtraFilter.Sql(String.join(" or ", alternatives), params);
    }

    public boolean permits(Db db, Model model, long id, Action action) {
        return permits(db, model, id, action.code());
    }

    /** Whether the object is within the caller's permission for the action (no query when unrestricted). */
    public boolean permits(Db db, Model model, long id, String action) {
        ExtraFilter.Sql r = restriction(model, action);
        if (r == null) {
            return true;
        }
        if (r == NOTHING) {
            return false;
        }
        List<Object> params = new ArrayList<>();
        params.add(id);
        params.addAll(r.params());
        return !db.query("select 1 from " + model.table() + " t where t.id = ? and (" + r.sql() + ")", params)
                .isEmpty();
    }

    /** Whether all the objects are within the caller's permission for the action (one query at most). */
    public boolean permitsAll(Db db, Model model, List<Long> ids, Action action) {
        ExtraFilter.Sql r = restriction(model, action.code());
        if (r == null || ids.isEmpty()) {
            return true;
        }
        if (r == NOTHING) {
            return false;
        }
        List<Object> params = new ArrayList<>();
        params.add(new Db.SqlArray("bigint", ids));
        params.addAll(r.params());
        return db.count(
                        "select count(*) from " + model.table() + " t where t.id = any(?) and (" + r.sql() + ")",
                        params)
                == new java.util.HashSet<>(ids).size();
    }

    /** {@link #permits(Db, Model, long, String)} on a connection of its own (inside a write, the same transaction). */
    public boolean permits(Model model, long id, String action) {
        try (Connection c = dataSource.getConnection()) {
            return permits(new Db(c), model, id, action);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    private boolean isExempt(Model model) {
        List<String> list = settings.exemptViews();
        return list.contains(model.contentType())
                || (list.contains("*") && !WILDCARD_EXCLUDED.contains(model.contentType()));
    }

    private static ApiException notAuthenticated() {
        return ApiException.detail(403, "Authentication credentials were not provided.");
    }
}
