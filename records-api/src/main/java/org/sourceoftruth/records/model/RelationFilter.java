package org.sourceoftruth.records.model;

import java.util.List;

/**
 * NetBox's ModelMultipleChoiceFilter over a relation path, e.g. a device's {@code manufacturer}
 * ({@code field_name='device_type__manufacturer__slug'}): objects whose related object, reached
 * through the foreign keys or many-to-many fields of {@code path}, has one of the given values
 * of {@code key} ({@code id}, {@code slug}, {@code name}, ...). Every value must name an existing
 * object (else a 400), {@code null} matches objects without one, {@code __n} is derived.
 */
public record RelationFilter(String name, List<String> path, String key) {}
