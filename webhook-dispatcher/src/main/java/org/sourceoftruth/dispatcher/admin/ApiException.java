package org.sourceoftruth.dispatcher.admin;

import java.util.Map;

/** An API error with its status and JSON body (NetBox's shapes: {"detail": ...} or field errors). */
public class ApiException extends RuntimeException {
    private final int status;
    private final Object body;

    public ApiException(int status, Object body) {
        super(String.valueOf(body));
        this.status = status;
        this.body = body;
    }

    public static ApiException detail(int status, String detail) {
        return new ApiException(status, Map.of("detail", detail));
    }

    public int status() {
        return status;
    }

    public Object body() {
        return body;
    }

    /** For people: the "detail" message, or the field errors as text. */
    public String message() {
        if (body instanceof Map<?, ?> map && map.size() == 1 && map.get("detail") != null) {
            return String.valueOf(map.get("detail"));
        }
        return String.valueOf(body);
    }
}
