package org.sourceoftruth.records.api.openapi;

import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * A CDI bean that describes paths served outside the generic model resource (an action such as
 * {@code available-ips}, a forwarded API) in the OpenAPI document. Called once, after the model
 * endpoints and their components are in the document, so it may refer to those components.
 */
public interface OpenApiContribution {
    void contribute(OpenAPI api);
}
