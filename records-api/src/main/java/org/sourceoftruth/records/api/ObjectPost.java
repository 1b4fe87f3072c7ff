package org.sourceoftruth.records.api;

import jakarta.ws.rs.core.Response;

/**
 * A model whose object URL takes a POST (NetBox's {@code POST extras/scripts/<id>/}, which runs
 * the script). The generic resource owns that URL for every model; an application declares the
 * POST of its model here, and every other model answers 405 as NetBox does.
 */
public interface ObjectPost {
    /** The model this POST belongs to ({@code extras.script}). */
    String contentType();

    /** Answers {@code POST /api/<app>/<model>/<id>/} with the request body (possibly empty). */
    Response post(long id, String body);
}
