package org.sourceoftruth.records.circuits;

import org.sourceoftruth.records.model.TableName;

/**
 * Tables of the circuits application that other packages name in SQL. Naming them through these
 * constants, rather than as text, makes the dependency a reference the architecture test sees.
 */
public final class CircuitsTables {
    public static final String PROVIDER = TableName.of("circuits_provider");
    public static final String PROVIDER_ASNS = TableName.of("circuits_provider_asns");

    private CircuitsTables() {}
}
