package org.sourceoftruth.records.ipam;

/**
 * A prefix's place in its VRF's hierarchy, computed by SQL on read (NetBox stores these as
 * _depth and _children and rebuilds them on every write): depth counts the prefixes of the same
 * VRF that contain it, children those it contains. The gist index on prefix serves both.
 */
final class PrefixTree {
    static final String DEPTH = "select count(*) from ipam_prefix p where p.vrf_id is not distinct from t.vrf_id"
            + " and p.prefix >> t.prefix";
    static final String CHILDREN = "select count(*) from ipam_prefix p where p.vrf_id is not distinct from t.vrf_id"
            + " and p.prefix << t.prefix";

    private PrefixTree() {
    }
}
