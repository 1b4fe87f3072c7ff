package org.sourceoftruth.dispatcher.admin;

/**
 * A user of records-api as records-api identified them from the credentials they sent here.
 *
 * @param writeEnabled false for a token that may only read (NetBox's write_enabled); true for a
 *                     login session
 */
public record Caller(long userId, String username, boolean superuser, boolean writeEnabled) {}
