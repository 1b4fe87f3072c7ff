package org.sourceoftruth.records.model;

import java.util.List;

/**
 * Implemented by one CDI bean per application (dcim, ipam, ...); each returns its model
 * declarations. {@link ModelRegistry} collects them all at start-up.
 */
public interface ModelDefinition {
    List<Model> models();
}
