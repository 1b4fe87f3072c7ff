package org.sourceoftruth.records.model;

import java.util.function.UnaryOperator;

/**
 * How component names, labels and positions are written when an object's components are made
 * from its type's templates: a module replaces {@code {module}} by its bay's position.
 */
@FunctionalInterface
public interface ComponentNames {
    /** Names as the templates give them (a device's components). */
    ComponentNames AS_GIVEN = (db, owner) -> UnaryOperator.identity();

    /**
     * The resolver for the components of {@code owner} (the row as written). The resolver may
     * throw {@link IllegalArgumentException}: its message refuses the write with a 400.
     */
    UnaryOperator<String> forOwner(Queries db, Row owner);
}
