package org.sourceoftruth.records.model;

import java.util.Set;

/**
 * Fields and filters that one declaration adds to models declared elsewhere, as a NetBox model
 * mixin (OwnerMixin) adds them to every model class that inherits it: one CDI bean per mixin,
 * applied by {@link ModelRegistry} to the models it names once every model is declared, before
 * relations are resolved.
 */
public interface ModelMixin {
    /** The content types of the models the mixin applies to; naming an undeclared one fails start-up. */
    Set<String> contentTypes();

    /** Adds the mixin's fields and filters to {@code model}. */
    void apply(Model model);
}
