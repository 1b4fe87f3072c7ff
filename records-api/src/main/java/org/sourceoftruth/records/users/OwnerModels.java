package org.sourceoftruth.records.users;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;

/**
 * users: owners and owner groups (NetBox 4.5's resource ownership). An owner is a set of users
 * and groups of users responsible for the objects assigned to it (the {@code owner} every owned
 * model carries, see {@link Ownership}); owner groups only organise owners. An owner with
 * objects, or a group with owners, cannot be deleted.
 */
@ApplicationScoped
public class OwnerModels implements ModelDefinition {

    @Override
    public List<Model> models() {
        Model group = Model.of("users", "owner-groups", "owner group")
                .fields(
                        str("name").required().max(100).unique(),
                        str("description").max(200),
                        count("member_count", "users_owner", "group_id"))
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");

        Model owner = Model.of("users", "owners", "owner")
                .fields(
                        str("name").required().max(100).unique(),
                        // NetBox's serializer requires the key, null included
                        fk("group", "users.ownergroup").required().nullable().protect(),
                        str("description").max(200),
                        m2m("user_groups", "users.group", "users_owner_user_groups", "owner_id", "group_id"),
                        m2m("users", "users.user", "users_owner_users", "owner_id", "user_id"))
                .relationFilter("user_group", "user_groups", "name")
                .relationFilter("user_group_id", "user_groups", "id")
                .relationFilter("user", "users", "username")
                .relationFilter("user_id", "users", "id")
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");
        return List.of(group, owner);
    }

    /**
     * {@code owner_id} and {@code owner} (by name) on the owners' members, users or groups: the
     * members of the given owners, through the owner's join table and its column for the member.
     */
    static List<ExtraFilter> memberOf(String joinTable, String memberColumn) {
        String members = "{t}.id in (select j." + memberColumn + " from " + joinTable + " j";
        return List.of(
                ExtraFilters.each("owner_id", Kind.INTEGER, members + " where j.owner_id = ?)")
                        .choicesFrom("users_owner", "id"),
                ExtraFilters.each(
                                "owner",
                                Kind.STRING,
                                members + " join users_owner o on o.id = j.owner_id where o.name = ?)")
                        .choicesFrom("users_owner", "name"));
    }
}
