package org.sourceoftruth.records.model;

import static org.sourceoftruth.records.model.Fields.*;

/** Building blocks shared by many model declarations (NetBox's base model classes). */
public final class Declarations {
    /** NetBox's colour fields: six hex digits, no '#'. */
    public static final String COLOR = "^[0-9a-fA-F]{6}$";

    public static final String COLOR_MESSAGE = "Enter a valid hexadecimal RGB color code.";

    private Declarations() {}

    /** An "organizational" model: name and slug (each unique), description; ordered by name. */
    public static Model organizational(String app, String path, String verbose) {
        String name = Model.modelName(verbose);
        return organizational(app, path, app + "." + name, app + "_" + name, verbose);
    }

    /** {@link #organizational(String, String, String)} with a content type and table of its own. */
    public static Model organizational(String app, String path, String contentType, String table, String verbose) {
        return Model.of(app, path, contentType, table, verbose)
                .fields(str("name").required().max(100).unique(), slug("slug").unique())
                .ordering("t.name")
                .search("t.name", "t.slug", "t.description")
                .brief("name", "slug", "description");
    }

    /**
     * A nested-tree model (region, site group, tenant group, device role): name and slug unique
     * among siblings and among top-level objects, a parent, and a computed _depth; filters on the
     * model match descendants too.
     */
    public static Model tree(String app, String path, String verbose) {
        String name = Model.modelName(verbose);
        return tree(app, path, app + "." + name, app + "_" + name, verbose);
    }

    /** {@link #tree(String, String, String)} with a content type and table of its own. */
    public static Model tree(String app, String path, String contentType, String table, String verbose) {
        String title = Character.toUpperCase(verbose.charAt(0)) + verbose.substring(1);
        return treeShape(app, path, contentType, table, verbose)
                .unique(UniqueRule.of(title + " with this Parent and Name already exists.", "parent_id", "name")
                        .topLevel("A top-level " + verbose + " with this name already exists."))
                .unique(UniqueRule.of(title + " with this Parent and Slug already exists.", "parent_id", "slug")
                        .topLevel("A top-level " + verbose + " with this slug already exists."));
    }

    /**
     * A nested-tree model whose name and slug are unique by other rules than among siblings
     * (a platform's, per manufacturer): name, slug, a parent and a computed _depth.
     */
    public static Model treeShape(String app, String path, String verbose) {
        String name = Model.modelName(verbose);
        return treeShape(app, path, app + "." + name, app + "_" + name, verbose);
    }

    /** {@link #treeShape(String, String, String)} with a content type and table of its own. */
    public static Model treeShape(String app, String path, String contentType, String table, String verbose) {
        return Model.of(app, path, contentType, table, verbose)
                .fields(
                        str("name").required().max(100),
                        slug("slug"),
                        fk("parent", contentType).cascade())
                .tree("parent")
                .select(
                        "_depth",
                        "with recursive a(pid) as (select t.parent_id union all select p.parent_id from " + table
                                + " p join a on p.id = a.pid) select count(*) from a where pid is not null")
                .ordering("t.name")
                .search("t.name", "t.slug", "t.description", "t.comments")
                .brief("name", "slug", "description", "_depth");
    }

    /**
     * ORDER BY terms sorting a name column naturally ("eth2" before "eth10"): the leading
     * non-digits, then the embedded numbers as numbers, then the text.
     */
    public static String[] naturalOrder(String column) {
        return new String[] {
            "(regexp_match(" + column + ", '^\\D*'))[1]",
            "(select array_agg(m[1]::numeric) from regexp_matches(" + column + ", '(\\d+)', 'g') m)",
            column
        };
    }

    /**
     * A nested group (region, site group, tenant group): a tree with description, tags, custom
     * fields, the count of its members (0 when shown nested, as NetBox), comments and _depth.
     */
    public static Model nestedGroup(String app, String path, String verbose, Field memberCount) {
        String name = Model.modelName(verbose);
        return nestedGroup(app, path, app + "." + name, app + "_" + name, verbose, memberCount);
    }

    /** {@link #nestedGroup(String, String, String, Field)} with a content type and table of its own. */
    public static Model nestedGroup(
            String app, String path, String contentType, String table, String verbose, Field memberCount) {
        return tree(app, path, contentType, table, verbose)
                .fields(str("description").max(200))
                .standardTail()
                .fields(memberCount.nestedCount(Field.NestedCount.ZERO), str("comments"), depth())
                .brief(memberCount.name);
    }

    /** The computed _depth field of tree models (from the model's extra select). */
    public static Field depth() {
        return computed("_depth", r -> r.longValue("_depth")).renders(Kind.INTEGER);
    }
}
