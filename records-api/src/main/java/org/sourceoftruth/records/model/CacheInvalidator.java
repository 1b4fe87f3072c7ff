package org.sourceoftruth.records.model;

/**
 * Told of every write the engine makes, inside the write's transaction, so that a part of the
 * application can drop what the write made stale (a cache) without the engine knowing it.
 */
public interface CacheInvalidator {
    /** An object of {@code contentType} was created, updated or ({@code delete}) deleted. */
    void afterWrite(String contentType, boolean delete);
}
