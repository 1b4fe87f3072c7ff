package org.sourceoftruth.records.fieldtype;

import org.eclipse.microprofile.openapi.models.media.Schema;

/** The OpenAPI document's component references a relation's schema points at. */
public interface SchemaNames {
    /** {@code Brief<X>} of the model with this content type. */
    Schema brief(String contentType);

    /** {@code Brief<X>Request} of the model with this content type. */
    Schema briefRequest(String contentType);

    /** NetBox's {@code NestedTag}. */
    Schema nestedTag();

    /** NetBox's {@code NestedTagRequest}. */
    Schema nestedTagRequest();
}
