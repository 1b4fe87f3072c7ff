package org.sourceoftruth.records.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.util.UUID;
import org.jboss.logging.MDC;
import org.sourceoftruth.observability.RequestLog;
import org.sourceoftruth.records.db.TimeOrderedUuids;

/** Per-request facts the engine needs: the request id (X-Request-ID), method and path, and the caller. */
@RequestScoped
public class RequestContext {
    /**
     * Set from the request's X-Request-ID by the auth filter; drawn only where no HTTP request
     * set one (a SecureRandom draw per request that the id then replaced was pure waste).
     */
    private UUID requestId;

    @Inject
    TimeOrderedUuids uuids;

    private Caller caller;
    private String baseUrl = "";
    private String method;
    private String path;

    /** The authenticated caller; {@code null} for anonymous requests. */
    public record Caller(long userId, String username, boolean superuser, long tokenId, boolean writeEnabled) {}

    public UUID requestId() {
        if (requestId == null) {
            requestId = uuids.next();
        }
        return requestId;
    }

    public void requestId(UUID id) {
        this.requestId = id;
    }

    public Caller caller() {
        return caller;
    }

    public void caller(Caller c) {
        this.caller = c;
        // Into the request's log context too; the MDC lives in the request's Vert.x context and
        // ends with it, so a later request on this thread does not inherit the name.
        if (c != null) {
            MDC.put(RequestLog.USER, c.username());
        }
    }

    public String baseUrl() {
        return baseUrl;
    }

    public void baseUrl(String url) {
        this.baseUrl = url;
    }

    /** The HTTP method of the request, null outside one (a scheduled job's changes). */
    public String method() {
        return method;
    }

    /** The request's path without its query (Django's request.path), null outside a request. */
    public String path() {
        return path;
    }

    public void request(String method, String path) {
        this.method = method;
        this.path = path;
    }
}
