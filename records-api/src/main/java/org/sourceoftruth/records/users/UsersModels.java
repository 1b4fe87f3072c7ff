package org.sourceoftruth.records.users;

import static org.sourceoftruth.records.model.Fields.*;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.auth.AuthSettings;
import org.sourceoftruth.records.auth.ConstraintCompiler;
import org.sourceoftruth.records.auth.PasswordHasher;
import org.sourceoftruth.records.auth.Secrets;
import org.sourceoftruth.records.auth.SessionStore;
import org.sourceoftruth.records.auth.TokenPeppers;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * users: users, groups, object permissions and API tokens. Passwords are write-only and
 * stored hashed; token keys are secrets shown once, in the response that creates the token
 * (and on later reads only when ALLOW_TOKEN_RETRIEVAL is on).
 */
@ApplicationScoped
public class UsersModels implements ModelDefinition {
    /** Django's username rule (letters, digits and @ . + - _). */
    private static final String USERNAME = "(?U)^[\\w.@+-]+$";

    private static final String EMAIL = "^[^@\\s]+@[^@\\s]+$";
    private static final Pattern ACTION = Pattern.compile("^[a-z][a-z_]{0,29}$");
    private static final int MIN_PASSWORD_LENGTH = 12;

    @Inject
    AuthSettings settings;

    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    SessionStore sessions;

    @Inject
    ConstraintCompiler constraintCompiler;

    @Inject
    TokenPeppers peppers;

    @Inject
    IssuedTokenSecrets issuedSecrets;
    /** Looked up lazily: the registry is built from this bean, among others. */
    @Inject
    Instance<ModelRegistry> registry;

    @Override
    public List<Model> models() {
        Model user = Model.of("users", "users", "users.user", "users_user", "user")
                .fields(
                        str("username")
                                .required()
                                .max(150)
                                .unique()
                                .pattern(
                                        USERNAME,
                                        "Enter a valid username. This value"
                                                + " may contain only letters, numbers, and @/./+/-/_ characters."),
                        str("password").required().writeOnly().onWrite(this::checkAndHashPassword),
                        str("first_name").max(150),
                        str("last_name").max(150),
                        str("email").max(254).pattern(EMAIL, "Enter a valid email address."),
                        bool("is_active").dflt(true),
                        bool("is_staff").dflt(false),
                        datetime("date_joined").readOnly().nullable(),
                        datetime("last_login").readOnly().nullable(),
                        m2m("groups", "users.group", "users_user_groups", "user_id", "group_id"),
                        m2m(
                                "permissions",
                                "users.objectpermission",
                                "users_objectpermission_users",
                                "user_id",
                                "objectpermission_id"))
                .display(UsersModels::userDisplay)
                .hook(new EndSessionsOnPasswordChange())
                .relationFilter("group", "groups", "name")
                .relationFilter("group_id", "groups", "id")
                .relationFilter("permission_id", "permissions", "id")
                .filter(ExtraFilters.bool("is_superuser", "{t}.is_superuser", "not {t}.is_superuser"))
                // members of notification groups (named there, not through their groups), as NetBox's filter
                .filter(ExtraFilters.each(
                                "notification_group_id",
                                Kind.INTEGER,
                                "{t}.id in (select user_id from extras_notificationgroup_users where notificationgroup_id = ?)")
                        .choicesFrom("extras_notificationgroup", "id"))
                .ordering("t.username")
                .search("t.username", "t.first_name", "t.last_name", "t.email")
                .brief("username");

        Model group = Model.of("users", "groups", "users.group", "users_group", "group")
                .fields(
                        str("name").required().max(150).unique(),
                        str("description").max(200),
                        m2m(
                                "permissions",
                                "users.objectpermission",
                                "users_objectpermission_groups",
                                "group_id",
                                "objectpermission_id"),
                        count("user_count", "users_user_groups", "group_id"))
                .relationFilter("permission_id", "permissions", "id")
                .filter(ExtraFilters.each(
                                "user_id",
                                Kind.INTEGER,
                                "{t}.id in (select g.group_id from users_user_groups g where g.user_id = ?)")
                        .choicesFrom("users_user", "id"))
                .filter(ExtraFilters.each(
                                "notification_group_id",
                                Kind.INTEGER,
                                "{t}.id in (select group_id from extras_notificationgroup_groups where notificationgroup_id = ?)")
                        .choicesFrom("extras_notificationgroup", "id"))
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("display_url", "name", "description");

        Model permission = Model.of(
                        "users", "permissions", "users.objectpermission", "users_objectpermission", "object permission")
                .fields(
                        str("name").required().max(100),
                        str("description").max(200),
                        bool("enabled").dflt(true),
                        stringList("object_types").required().objectTypeIds(),
                        stringList("actions").required(),
                        json("constraints")
                                .nullable()
                                .help("Queryset filter matching the applicable objects of the selected type(s)"),
                        m2m(
                                "groups",
                                "users.group",
                                "users_objectpermission_groups",
                                "objectpermission_id",
                                "group_id"),
                        m2m("users", "users.user", "users_objectpermission_users", "objectpermission_id", "user_id"))
                .validator(this::permissionRules)
                .relationFilter("group", "groups", "name")
                .relationFilter("group_id", "groups", "id")
                .relationFilter("user", "users", "username")
                .relationFilter("user_id", "users", "id")
                .filters(actionFilters())
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description", "enabled", "object_types", "actions");

        // NetBox 4.5's fields in its order; version 1 (a 40-character key that is the secret)
        // stays the default so that 4.4 clients, which read "key" from the created token, work
        Model token = Model.of("users", "tokens", "users.token", "users_token", "token")
                .fields(
                        integer("version")
                                .dflt(1)
                                .help("1: the key is the secret (NetBox 4.4); 2: nbt_<key>.<token>,"
                                        + " the secret stored only as an HMAC"),
                        str("key")
                                .max(40)
                                .unique()
                                .secret()
                                .pattern(
                                        "^[0-9a-fA-F]{40}$",
                                        "Ensure this field has exactly 40 hexadecimal characters."),
                        fk("user", "users.user").required().cascade(),
                        str("description").max(200),
                        datetime("created").readOnly().nullable(),
                        datetime("expires").nullable(),
                        datetime("last_used").readOnly().nullable(),
                        bool("enabled").dflt(true),
                        bool("write_enabled").dflt(true),
                        integer("pepper_id").readOnly().nullable(),
                        stringList("allowed_ips")
                                .onWrite(UsersModels::normaliseNetworks)
                                .help("Allowed IPv4/IPv6 networks from where the token can be used. Leave blank for no"
                                        + " restrictions. Ex: \"10.1.1.0/24, 192.168.10.16/32, 2001:DB8:1::/64\""),
                        computed("token", r -> issuedSecrets.plaintext(r.str("key")))
                                .renders(Kind.STRING)
                                .secret()
                                .help("The secret, shown once: in the response that creates the token"))
                .display(UsersModels::tokenDisplay)
                .secretsReadable(r -> isV2(r) || keyRetrievable(r))
                .secretsFilterScope(this::retrievableKeys)
                .relationFilter("user", "user", "username")
                .ordering("t.created desc")
                .search("t.description")
                .brief("version", "key", "write_enabled", "description", "enabled");
        token.hook(new TokenRules(token));
        return List.of(user, group, permission, token);
    }

    /**
     * ALLOW_TOKEN_RETRIEVAL shows the key of an existing token to its owner only. (NetBox shows
     * it to anyone who may view the token; here no one ever reads another user's key.)
     */
    private boolean keyRetrievable(Row token) {
        RequestContext.Caller caller = request.caller();
        return settings.allowTokenRetrieval()
                && caller != null
                && Objects.equals(token.longValue("user_id"), caller.userId());
    }

    /** {@link #keyRetrievable} as SQL, and v2 tokens (whose key is no secret). */
    private ExtraFilter.Sql retrievableKeys() {
        RequestContext.Caller caller = request.caller();
        return settings.allowTokenRetrieval() && caller != null
                ? ExtraFilter.Sql.of("t.version = 2 or t.user_id = ?", caller.userId())
                : ExtraFilter.Sql.of("t.version = 2");
    }

    /** A v2 token's key only names it (the secret is elsewhere): it is shown like any field. */
    private static boolean isV2(Row token) {
        return token.get("version") instanceof Number n && n.intValue() == 2;
    }

    /** can_view, can_add, can_change, can_delete: the permission grants (or not) that action. */
    private static List<ExtraFilter> actionFilters() {
        List<ExtraFilter> out = new ArrayList<>();
        for (String action : List.of("view", "add", "change", "delete")) {
            out.add(ExtraFilters.bool(
                    "can_" + action,
                    "'" + action + "' = any({t}.actions)",
                    "not ('" + action + "' = any({t}.actions))"));
        }
        return out;
    }

    /** NetBox's User display: the username, with the full name in brackets when there is one. */
    private static String userDisplay(Row r) {
        String full =
                (Objects.toString(r.str("first_name"), "") + " " + Objects.toString(r.str("last_name"), "")).trim();
        return full.isEmpty() ? r.str("username") : r.str("username") + " (" + full + ")";
    }

    /** A v2 token's key; never a v1 key itself: 34 asterisks and its last six characters, as NetBox shows v1 tokens. */
    private static String tokenDisplay(Row r) {
        String key = Objects.toString(r.str("key"), "");
        if (isV2(r)) {
            return key;
        }
        return key.length() < 6 ? "" : "*".repeat(34) + key.substring(key.length() - 6);
    }

    /** NetBox's password validators (at least 12 characters, a digit, an upper- and a lower-case letter), then the hash. */
    private Object checkAndHashPassword(Object value) {
        String password = (String) value;
        if (password.isEmpty()) {
            throw new IllegalArgumentException("This field may not be blank.");
        }
        if (password.length() < MIN_PASSWORD_LENGTH) {
            throw new IllegalArgumentException(
                    "This password is too short. It must contain at least " + MIN_PASSWORD_LENGTH + " characters.");
        }
        if (password.chars().noneMatch(Character::isDigit)) {
            throw new IllegalArgumentException("Password must have at least one numeral.");
        }
        if (password.chars().noneMatch(Character::isUpperCase)) {
            throw new IllegalArgumentException("Password must have at least one uppercase letter.");
        }
        if (password.chars().noneMatch(Character::isLowerCase)) {
            throw new IllegalArgumentException("Password must have at least one lowercase letter.");
        }
        return PasswordHasher.hash(password, settings.passwordHashIterations());
    }

    /** allowed_ips: each entry an IPv4/IPv6 prefix or address, stored normalised ("10.0.0.0/8"). */
    @SuppressWarnings("unchecked")
    private static Object normaliseNetworks(Object value) {
        List<String> out = new ArrayList<>();
        for (String v : (List<String>) value) {
            out.add(Cidr.parse(v, false)
                    .orElseThrow(() -> new IllegalArgumentException("Invalid IP prefix format: " + v))
                    .text());
        }
        return out;
    }

    /** Object types must be models of this service, actions plain names, constraints usable on every type. */
    @SuppressWarnings("unchecked")
    private void permissionRules(Row row, Map<String, List<String>> errors) {
        List<String> types = row.get("object_types") instanceof List<?> l ? (List<String>) l : List.of();
        List<String> actions = row.get("actions") instanceof List<?> l ? (List<String>) l : List.of();
        // object_types may be empty, as in NetBox (the permission then grants nothing)
        if (actions.isEmpty()) {
            add(errors, "actions", "This list may not be empty.");
        }
        List<Model> models = new ArrayList<>();
        for (String t : types) {
            Optional<Model> m = registry.get().byContentType(t);
            if (m.isPresent()) {
                models.add(m.get()); // its constraints are checked below
            } else if (!NetBoxObjectTypes.contains(t)) {
                add(errors, "object_types", "Invalid content type: " + t);
            }
        }
        for (String a : actions) {
            if (!ACTION.matcher(a).matches()) {
                add(errors, "actions", "Invalid action: " + a);
            }
        }
        JsonNode constraints = (JsonNode) row.get("constraints");
        for (Model m : models) {
            try {
                constraintCompiler.compile(m, constraints, 0);
            } catch (ConstraintCompiler.InvalidConstraint e) {
                add(errors, "constraints", "Invalid filter for " + m.verboseName() + ": " + e.getMessage());
            }
        }
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    /** A password change ends the user's browser sessions, as Django's session auth hash does. */
    private final class EndSessionsOnPasswordChange implements WriteHook.OnWrittenRow {
        @Override
        public void afterWrite(Row written, Row changes, Row existing) {
            if (existing != null && changes.containsKey("password")) {
                sessions.deleteForUser(written.id());
            }
        }
    }

    /**
     * Tokens: the user is required and cannot change later; an empty key is
     * generated (40 hex characters, 160 bits from a CSPRNG); a token for another user needs the
     * users.grant_token permission (action "grant" on users.token), checked on the stored token
     * so that the permission's constraints apply.
     */
    private final class TokenRules implements WriteHook.OnWrittenRow {
        private final Model token;

        TokenRules(Model token) {
            this.token = token;
        }

        @Override
        public void beforeWrite(Row changes, Row existing, Map<String, List<String>> errors) {
            if (existing == null) {
                Object version = changes.get("version");
                if (version == null || ((Number) version).intValue() == 1) {
                    if (Objects.toString(changes.get("key"), "").isEmpty()) {
                        changes.put("key", PasswordHasher.newTokenKey());
                    }
                    issuedSecrets.issued(changes.str("key"), changes.str("key"));
                } else if (((Number) version).intValue() == 2) {
                    issueV2(changes, errors);
                } else {
                    add(errors, "version", "\"" + version + "\" is not a valid choice.");
                }
                return;
            }
            if (changes.containsKey("user_id") && !Objects.equals(changes.get("user_id"), existing.get("user_id"))) {
                add(errors, "user", "The user of an existing token cannot be changed.");
            }
            if (changes.containsKey("version")
                    && !Objects.equals(
                            ((Number) changes.get("version")).intValue(),
                            ((Number) existing.get("version")).intValue())) {
                add(errors, "version", "The version of an existing token cannot be changed.");
            }
            if (isV2(existing) || Objects.toString(changes.get("key"), "x").isEmpty()) {
                changes.remove("key"); // a v2 key is read-only; an empty key on update keeps the current one
            }
        }

        /**
         * A v2 token: a public 12-character key and a 40-character secret from a CSPRNG; only
         * the secret's HMAC under the current pepper is stored, the secret is shown once.
         */
        private void issueV2(Row changes, Map<String, List<String>> errors) {
            Optional<TokenPeppers.Pepper> pepper = peppers.current();
            if (pepper.isEmpty()) {
                add(errors, "version", "Unable to save v2 tokens: API_TOKEN_PEPPERS is not defined.");
                return;
            }
            String key = Secrets.randomAlphanumeric(12);
            String secret = Secrets.randomAlphanumeric(40);
            changes.put("key", key);
            changes.put("pepper_id", pepper.get().id());
            changes.put("hmac_digest", TokenPeppers.hmac(pepper.get().secret(), secret));
            issuedSecrets.issued(key, secret);
        }

        @Override
        public void afterWrite(Row written, Row changes, Row existing) {
            RequestContext.Caller caller = request.caller();
            boolean forOther = !Objects.equals(written.longValue("user_id"), caller.userId());
            if (existing == null && forOther && !access.permits(token, written.id(), "grant")) {
                throw ApiException.detail(403, "This user does not have permission to create tokens for other users.");
            }
        }
    }
}
