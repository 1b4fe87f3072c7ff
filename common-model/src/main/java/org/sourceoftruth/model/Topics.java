package org.sourceoftruth.model;

/** Kafka topic names shared by the services. */
public final class Topics {
    /** Every committed record change, keyed {@code <app>.<model>:<id>}. */
    public static final String OBJECT_CHANGES = "records.object-changes";

    private Topics() {}
}
