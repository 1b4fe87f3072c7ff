package org.sourceoftruth.records.engine.render;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An object as the API shows it, with its ETag (what a create, update or detail read answers). */
public record RenderedObject(ObjectNode node, String etag) {}
