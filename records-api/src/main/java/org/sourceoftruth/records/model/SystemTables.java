package org.sourceoftruth.records.model;

/**
 * Tables of application models that the layers below the applications read and write by name:
 * tags, custom fields and saved filters (the engine), object types, users, tokens and
 * permissions (auth). The applications' declarations take these names from here, so that a layer
 * below never names an application's table.
 */
public final class SystemTables {
    public static final String CORE_OBJECTTYPE = TableName.of("core_objecttype");
    public static final String CORE_RULES_VERSION = TableName.of("core_rules_version");
    public static final String EXTRAS_CUSTOMFIELD = TableName.of("extras_customfield");
    public static final String EXTRAS_CUSTOMFIELDCHOICESET = TableName.of("extras_customfieldchoiceset");
    public static final String EXTRAS_SAVEDFILTER = TableName.of("extras_savedfilter");
    public static final String EXTRAS_TAG = TableName.of("extras_tag");
    public static final String EXTRAS_TAGGEDITEM = TableName.of("extras_taggeditem");
    public static final String USERS_OBJECTPERMISSION = TableName.of("users_objectpermission");
    public static final String USERS_OBJECTPERMISSION_GROUPS = TableName.of("users_objectpermission_groups");
    public static final String USERS_OBJECTPERMISSION_USERS = TableName.of("users_objectpermission_users");
    public static final String USERS_SIGNIN_ATTEMPT = TableName.of("users_signin_attempt");
    public static final String USERS_TOKEN = TableName.of("users_token");
    public static final String USERS_USER = TableName.of("users_user");
    public static final String USERS_USER_GROUPS = TableName.of("users_user_groups");

    private SystemTables() {}
}
