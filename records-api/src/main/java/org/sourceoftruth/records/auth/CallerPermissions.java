package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * The object permissions that apply to one user, loaded once per request: the enabled
 * permissions assigned to the user directly or through a group, plus DEFAULT_PERMISSIONS
 * (which NetBox grants every authenticated user).
 */
@RequestScoped
public class CallerPermissions {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    AuthSettings settings;

    private Long loadedFor;
    private List<Grant> grants = List.of();

    /** One permission: object types ("dcim.site"), actions ("view", "grant", ...) and constraints (null = none). */
    public record Grant(Set<String> objectTypes, Set<String> actions, JsonNode constraints) {
        boolean covers(String objectType, String action) {
            return objectTypes.contains(objectType) && actions.contains(action);
        }
    }

    /** The grants of {@code userId} that cover the action on the object type. */
    public List<Grant> covering(long userId, String objectType, String action) {
        return grantsOf(userId).stream()
                .filter(g -> g.covers(objectType, action))
                .toList();
    }

    private List<Grant> grantsOf(long userId) {
        if (loadedFor == null || loadedFor != userId) {
            grants = load(userId);
            loadedFor = userId;
        }
        return grants;
    }

    @SuppressWarnings("unchecked")
    private List<Grant> load(long userId) {
        List<Grant> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            List<Row> rows = new Db(c)
                    .query(
                            "select p.object_types, p.actions, p.constraints from "
                                    + SystemTables.USERS_OBJECTPERMISSION + " p"
                                    + " where p.enabled and (exists (select 1 from "
                                    + SystemTables.USERS_OBJECTPERMISSION_USERS + " pu"
                                    + " where pu.objectpermission_id = p.id and pu.user_id = ?)"
                                    + " or exists (select 1 from " + SystemTables.USERS_OBJECTPERMISSION_GROUPS
                                    + " pg join " + SystemTables.USERS_USER_GROUPS + " ug"
                                    + " on ug.group_id = pg.group_id where pg.objectpermission_id = p.id and ug.user_id = ?))",
                            userId,
                            userId);
            for (Row r : rows) {
                out.add(new Grant(
                        new HashSet<>((List<String>) r.get("object_types")),
                        new HashSet<>((List<String>) r.get("actions")),
                        (JsonNode) r.get("constraints")));
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        for (AuthSettings.DefaultPermission d : settings.defaultPermissions()) {
            out.add(new Grant(Set.of(d.objectType()), Set.of(d.action()), d.constraints()));
        }
        return out;
    }
}
