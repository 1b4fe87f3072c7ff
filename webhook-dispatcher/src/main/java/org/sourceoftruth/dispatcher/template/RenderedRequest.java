package org.sourceoftruth.dispatcher.template;

import java.net.URI;
import java.util.List;

/** The HTTP request of one delivery, exactly as it is (re)sent. */
public record RenderedRequest(String method, URI url, List<Header> headers, String body) {

    public record Header(String name, String value) {}

    /** host:port of the receiver, the unit of per-receiver concurrency. */
    public String targetHost() {
        int port = url.getPort() != -1 ? url.getPort() : ("https".equalsIgnoreCase(url.getScheme()) ? 443 : 80);
        return url.getHost().toLowerCase() + ":" + port;
    }
}
