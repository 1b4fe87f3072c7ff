package org.sourceoftruth.records.ipam;

/**
 * A prefix's place in its VRF's hierarchy, computed by SQL on read (NetBox stores these as
 * _depth and _children and rebuilds them on every write): depth counts the prefixes of the same
 * VRF that contain it, children those it contains. The gist index on prefix serves both.
 */
final class PrefixTree {
    private PrefixTree() {}

    /** The depth of the prefix row aliased {@code alias}. */
    static String depth(String alias) {
        return count(alias, ">>");
    }

    /** The number of child prefixes of the row aliased {@code alias}. */
    static String children(String alias) {
        return count(alias, "<<");
    }

    private static String count(String alias, String operator) {
        return "select count(*) from ipam_prefix p where p.vrf_id is not distinct from " + alias + ".vrf_id"
                + " and p.prefix " + operator + " " + alias + ".prefix";
    }
}
