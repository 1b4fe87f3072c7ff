package org.sourceoftruth.records.web;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Query strings are split on {@code &} only, as Django (and Python since 3.9.2) split them: a
 * {@code ;} is part of a value. Vert.x splits on {@code ;} too by default, so that
 * {@code ?id=1;drop} filtered on id 1 where NetBox answers 400 {@code {"id": ["Enter a whole
 * number."]}}, and {@code ?q=a;b} searched for "a".
 */
@ApplicationScoped
public class QueryStringSeparator implements HttpServerOptionsCustomizer {
    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        options.setUseSemicolonAsQueryParamDelimiter(false);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        options.setUseSemicolonAsQueryParamDelimiter(false);
    }

    @Override
    public void customizeDomainSocketServer(HttpServerOptions options) {
        options.setUseSemicolonAsQueryParamDelimiter(false);
    }
}
