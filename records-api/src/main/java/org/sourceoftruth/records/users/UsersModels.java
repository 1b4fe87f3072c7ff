package org.sourceoftruth.records.users;

import static org.sourceoftruth.records.model.Fields.*;

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
import org.sourceoftruth.records.auth.PasswordHasher;
import org.sourceoftruth.records.auth.PasswordHashing;
import org.sourceoftruth.records.auth.Secrets;
import org.sourceoftruth.records.auth.SessionStore;
import org.sourceoftruth.records.auth.TokenDigests;
import org.sourceoftruth.records.auth.TokenPeppers;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.extras.ExtrasTables;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Queries;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.model.WriteHook;
import org.sourceoftruth.records.net.Cidr;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * users: users, groups, object permissions and API tokens. Passwords are write-only and
 * stored hashed; token secrets (a v1 token's key, a v2 token's plaintext) are stored only as
 * digests ({@link TokenDigests}) and shown once, in the response that creates the token.
 */
@ApplicationScoped
public class UsersModels implements ModelDefinition {
    /** Django's username rule (letters, digits and @ . + - _). */
    private static final String USERNAME = "(?U)^[\\w.@+-]+$";

    private static final String EMAIL = "^[^@\\s]+@[^@\\s]+$";
    private static final Pattern ACTION = Pattern.compile("^[a-z][a-z_]{0,29}$");
    private static final int MIN_PASSWORD_LENGTH = 12;

    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    SessionStore sessions;

    @Inject
    TokenPeppers peppers;

    @Inject
    TokenDigests digests;

    @Inject
    PasswordHashing hashing;

    @Inject
    IssuedTokenSecrets issuedSecrets;
    /** Looked up lazily: the registry is built from this bean, among others. */
    @Inject
    Instance<ModelRegistry> registry;

    @Override
    public List<Model> models() {
        Model user = Model.of("users", "users", "users.user", SystemTables.USERS_USER, "user")
                .fields(
                        str("username")
                                .required()
                                .max(150)
                                .unique()
                                .pattern(
                                        USERNAME,
                                        "Enter a valid username. This value"
                                                + " may contain only letters, numbers, and @/./+/-/_ characters."),
                        str("password").required().writeOnly().sensitive().onWrite(this::checkAndHashPassword),
                        str("first_name").max(150),
                        str("last_name").max(150),
                        str("email").max(254).pattern(EMAIL, "Enter a valid email address."),
                        bool("is_active").dflt(true),
                        datetime("date_joined").readOnly().nullable(),
                        datetime("last_login").readOnly().nullable(),
                        m2m("groups", "users.group", SystemTables.USERS_USER_GROUPS, "user_id", "group_id"),
                        m2m(
                                "permissions",
                                "users.objectpermission",
                                SystemTables.USERS_OBJECTPERMISSION_USERS,
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
                                "{t}.id in (select user_id from " + ExtrasTables.NOTIFICATIONGROUP_USERS
                                        + " where notificationgroup_id = ?)")
                        .choicesFrom(ExtrasTables.NOTIFICATIONGROUP, "id"))
                .filters(OwnerModels.memberOf("users_owner_users", "user_id"))
                .ordering("t.username")
                .search("t.username", "t.first_name", "t.last_name", "t.email")
                .brief("username");

        Model group = Model.of("users", "groups", "group")
                .fields(
                        str("name").required().max(150).unique(),
                        str("description").max(200),
                        m2m(
                                "permissions",
                                "users.objectpermission",
                                SystemTables.USERS_OBJECTPERMISSION_GROUPS,
                                "group_id",
                                "objectpermission_id"),
                        count("user_count", SystemTables.USERS_USER_GROUPS, "group_id"))
                .relationFilter("permission_id", "permissions", "id")
                .filter(ExtraFilters.each(
                                "user_id",
                                Kind.INTEGER,
                                "{t}.id in (select g.group_id from " + SystemTables.USERS_USER_GROUPS
                                        + " g where g.user_id = ?)")
                        .choicesFrom(SystemTables.USERS_USER, "id"))
                .filter(ExtraFilters.each(
                                "notification_group_id",
                                Kind.INTEGER,
                                "{t}.id in (select group_id from " + ExtrasTables.NOTIFICATIONGROUP_GROUPS
                                        + " where notificationgroup_id = ?)")
                        .choicesFrom(ExtrasTables.NOTIFICATIONGROUP, "id"))
                .filters(OwnerModels.memberOf("users_owner_user_groups", "group_id"))
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("display_url", "name", "description");

        Model permission = Model.of(
                        "users",
                        "permissions",
                        "users.objectpermission",
                        SystemTables.USERS_OBJECTPERMISSION,
                        "object permission")
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
                                SystemTables.USERS_OBJECTPERMISSION_GROUPS,
                                "objectpermission_id",
                                "group_id"),
                        m2m(
                                "users",
                                "users.user",
                                SystemTables.USERS_OBJECTPERMISSION_USERS,
                                "objectpermission_id",
                                "user_id"))
                .validator(this::permissionRules)
                .relationFilter("group", "groups", "name")
                .relationFilter("group_id", "groups", "id")
                .relationFilter("user", "users", "username")
                .relationFilter("user_id", "users", "id")
                .filters(actionFilters())
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description", "enabled", "object_types", "actions");

        // NetBox 4.6's fields in its order. Without a version a token is NetBox 4.6's default, v2
        // (when a pepper is configured; TokenRules), unless the request sends the v1 secret as
        // "key", as a 4.4 client does.
        // Neither version's secret is stored: the column "key" holds v2 public keys only.
        Model token = Model.of("users", "tokens", "users.token", SystemTables.USERS_TOKEN, "token")
                .fields(
                        integer("version")
                                .integerChoices(ChoiceSet.of("1", "v1", "2", "v2"))
                                .help("1: the key is the secret (NetBox 4.4); 2: nbt_<key>.<token>,"
                                        + " the secret stored only as an HMAC (the default)"),
                        str("key")
                                .max(40)
                                .unique()
                                .secret()
                                .revealedAs(r -> isV2(r) ? null : issuedSecrets.plaintext(r.str("hmac_digest")))
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
                        // NetBox's pepper_id is a v2 token's; a v1 token's digest has one too, not shown
                        integer("pepper_id")
                                .readOnly()
                                .nullable()
                                .readAs("case when t.version = 2 then t.pepper_id end"),
                        stringList("allowed_ips")
                                .onWrite(UsersModels::normaliseNetworks)
                                .help("Allowed IPv4/IPv6 networks from where the token can be used. Leave blank for no"
                                        + " restrictions. Ex: \"10.1.1.0/24, 192.168.10.16/32, 2001:DB8:1::/64\""),
                        computed("token", r -> issuedSecrets.plaintext(r.str("hmac_digest")))
                                .renders(Kind.STRING)
                                .secret()
                                .help("The secret, shown once: in the response that creates the token"))
                .select("hmac_digest", "t.hmac_digest")
                .select("key_tail", "t.key_tail")
                .display(UsersModels::tokenDisplay)
                // a v2 key only names its token; a v1 key is shown once (no setting can show it again)
                .secretsReadable(UsersModels::isV2)
                .secretsFilterScope(() -> ExtraFilter.Sql.of("t.version = 2"))
                .check(this::uniqueV1Key, "hmac_digest")
                .relationFilter("user", "user", "username")
                .ordering("t.created desc")
                .search("t.description")
                .brief("version", "key", "write_enabled", "description", "enabled");
        token.hook(new TokenRules(token));
        // not change-logged models in NetBox: no event rule may name them, and so none sends their events anywhere
        List.of(user, group, permission, token).forEach(m -> m.eventRules(false));
        return List.of(user, group, permission, token);
    }

    /**
     * A v1 key is unique, as NetBox's: no other v1 token has it, whichever pepper made that
     * token's digest. (The partial unique index on the digest catches a race under one pepper.)
     */
    private void uniqueV1Key(Queries db, Row row, Long selfId, Map<String, List<String>> errors) {
        String key = isV2(row) ? null : issuedSecrets.plaintext(row.str("hmac_digest"));
        if (key == null) {
            return; // no new key in this write
        }
        boolean taken = !db.query(
                        "select 1 from " + SystemTables.USERS_TOKEN
                                + " where version = 1 and hmac_digest = any(?) and id <> ?",
                        new Db.SqlArray("text", digests.candidates(key)),
                        selfId == null ? 0L : selfId)
                .isEmpty();
        if (taken) {
            add(errors, "key", "token with this key already exists.");
        }
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
        if (isV2(r)) {
            return Objects.toString(r.str("key"), "");
        }
        String tail = Objects.toString(r.str("key_tail"), "");
        return tail.isEmpty() ? "" : "*".repeat(34) + tail;
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
        return hashing.hash(password);
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

    /** Object types must be models of this service (or NetBox's), actions plain names. */
    @SuppressWarnings("unchecked")
    private void permissionRules(Row row, Map<String, List<String>> errors) {
        List<String> types = row.get("object_types") instanceof List<?> l ? (List<String>) l : List.of();
        List<String> actions = row.get("actions") instanceof List<?> l ? (List<String>) l : List.of();
        // object_types may be empty, as in NetBox (the permission then grants nothing)
        if (actions.isEmpty()) {
            add(errors, "actions", "This list may not be empty.");
        }
        for (String t : types) {
            if (registry.get().byContentType(t).isEmpty() && !NetBoxObjectTypes.contains(t)) {
                add(errors, "object_types", "Invalid content type: " + t);
            }
        }
        for (String a : actions) {
            if (!ACTION.matcher(a).matches()) {
                add(errors, "actions", "Invalid action: " + a);
            }
        }
        // constraints are taken as NetBox's API takes them (any JSON); a constraint that does not
        // fit a model grants nothing on it when permissions are evaluated (Access.restriction)
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    /** A password change ends the user's browser sessions, as Django's session auth hash does. */
    private final class EndSessionsOnPasswordChange implements WriteHook.OnWrittenRow {
        @Override
        public List<FollowUp> afterWrite(Queries db, Row written, Row changes, Row existing) {
            if (existing != null && changes.containsKey("password")) {
                sessions.deleteForUser(written.id());
            }
            return List.of();
        }
    }

    /**
     * Tokens: the user is required and cannot change later; an empty v1 key is
     * generated (40 hex characters, 160 bits from a CSPRNG) and only its digest stored, with its
     * last six characters for the display; a token for another user needs the
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
                if (version == null) {
                    boolean v1Key = !Objects.toString(changes.get("key"), "").isEmpty();
                    version = v1Key || peppers.current().isEmpty() ? 1 : 2;
                    changes.put("version", version);
                }
                if (((Number) version).intValue() == 1) {
                    issueV1(changes);
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
            if (changes.get("version") == null) {
                changes.remove("version"); // null on update: the version stays
            }
            if (changes.containsKey("version")
                    && !Objects.equals(
                            ((Number) changes.get("version")).intValue(),
                            ((Number) existing.get("version")).intValue())) {
                add(errors, "version", "The version of an existing token cannot be changed.");
            }
            if (!isV2(existing) && !Objects.toString(changes.get("key"), "").isEmpty()) {
                issueV1(changes); // a new key for a v1 token, stored as its digest
            }
            changes.remove("key"); // a v2 key is read-only; an empty key on update keeps the current one
        }

        /** A v1 token: the client's key or a new one; stored as its digest, shown once. */
        private void issueV1(Row changes) {
            String key = Objects.toString(changes.remove("key"), "");
            if (key.isEmpty()) {
                key = PasswordHasher.newTokenKey();
            }
            TokenDigests.Digest digest = digests.of(key);
            changes.put("hmac_digest", digest.hex());
            changes.put("pepper_id", digest.pepperId());
            changes.put("key_tail", TokenDigests.tail(key));
            issuedSecrets.issued(digest.hex(), key);
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
            String digest = TokenPeppers.hmac(pepper.get().secret(), secret);
            changes.put("hmac_digest", digest);
            issuedSecrets.issued(digest, secret);
        }

        @Override
        public List<FollowUp> afterWrite(Queries db, Row written, Row changes, Row existing) {
            RequestContext.Caller caller = request.caller();
            boolean forOther = !Objects.equals(written.longValue("user_id"), caller.userId());
            if (existing == null && forOther && !access.permits(token, written.id(), "grant")) {
                throw ApiException.detail(403, "This user does not have permission to create tokens for other users.");
            }
            return List.of();
        }
    }
}
