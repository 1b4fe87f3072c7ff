package org.sourceoftruth.records.graphql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.sourceoftruth.records.model.Model;

/** One object of a GraphQL response: its model and its REST rendering, from which its fields are read. */
record GraphqlObject(Model model, ObjectNode node) {
    long id() {
        return node.get("id").asLong();
    }
}
