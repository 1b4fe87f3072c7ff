package org.sourceoftruth.records.model;

/**
 * A filter of the objects related to this one by their foreign key, with all its lookups: a
 * device's {@code mac_address__ic} matches devices with an interface whose MAC address contains
 * the value; negated lookups ({@code __n}, {@code __nic}, ...) devices with no such interface,
 * as Django's exclude() across a to-many relation.
 *
 * @param name      the filter here and on the related model
 * @param childType content type of the related model
 * @param childFk   the related model's foreign key to this one
 */
public record ChildFilter(String name, String childType, String childFk) {}
