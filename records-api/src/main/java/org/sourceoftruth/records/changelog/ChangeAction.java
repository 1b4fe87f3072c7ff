package org.sourceoftruth.records.changelog;

/** What a change did to its object; {@link #value()} is what core_objectchange.action stores. */
public enum ChangeAction {
    CREATE("create"),
    UPDATE("update"),
    DELETE("delete");

    private final String value;

    ChangeAction(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /**
     * The action of one coalesced record when {@code later} follows this action on the same
     * object in the same request: the first action stands, except that a delete wins (NetBox's
     * event queue does the same: "create, then delete" is reported as deleted).
     */
    public ChangeAction followedBy(ChangeAction later) {
        return later == DELETE ? DELETE : this;
    }
}
