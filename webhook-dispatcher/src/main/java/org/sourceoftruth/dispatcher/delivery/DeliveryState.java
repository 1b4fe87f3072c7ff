package org.sourceoftruth.dispatcher.delivery;

import java.util.Locale;

/** States of a delivery (the spec's "Outbound webhook delivery" table). */
public enum DeliveryState {
    QUEUED,
    SUCCEEDED,
    FAILED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DeliveryState fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
