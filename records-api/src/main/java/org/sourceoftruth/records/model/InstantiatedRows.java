package org.sourceoftruth.records.model;

import java.util.List;

/**
 * Rows that components made from a template model take along and that are no API objects of
 * their own (a front port's port mappings, copied from its template's mappings, as NetBox's
 * {@code create_port_mappings}): written by the engine right after the components, in the same
 * transaction and before their change records, so that the records show them. Declared with
 * {@link Model#instantiatesRows}.
 */
@FunctionalInterface
public interface InstantiatedRows {
    void write(Queries db, Made made);

    /** One component just made from a template for an owner (a device, a module). */
    record Component(long owner, long template, long id) {}

    /** What the instantiation made so far. */
    interface Made {
        /** The components just made from this template model. */
        List<Component> components();

        /**
         * The component made in this instantiation from template {@code templateId} of the model
         * {@code templateType} for the owner, or null (none was made: a template model declared
         * later, or a component adopted rather than made).
         */
        Long component(String templateType, long owner, long templateId);
    }
}
