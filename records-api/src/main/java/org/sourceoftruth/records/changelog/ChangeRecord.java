package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.UUID;

/** One change of one object, as the engine hands it to {@link ChangeRecorder}. */
public record ChangeRecord(Long userId, String userName, UUID requestId, String action, String changedObjectType,
                           long changedObjectId, String objectRepr, String message, JsonNode prechange,
                           JsonNode postchange, JsonNode eventData) {
}
