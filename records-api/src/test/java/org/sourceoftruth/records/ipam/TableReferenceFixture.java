package org.sourceoftruth.records.ipam;

import org.sourceoftruth.records.dcim.DcimTables;

/**
 * Classes of the ipam package for the architecture test's table rule to judge: one names a dcim
 * table as text, which the rule must report, the other through dcim's holder, which it must not.
 */
final class TableReferenceFixture {
    private TableReferenceFixture() {}

    static final class AsText {
        static String sql() {
            return "select s.name from dcim_site s where s.id = ?";
        }
    }

    static final class ThroughOwner {
        static String sql() {
            return "select s.name from " + DcimTables.SITE + " s where s.id = ?";
        }
    }
}
