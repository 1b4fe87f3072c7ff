package org.sourceoftruth.model.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which {@code additional_headers} a webhook may set. Headers that describe the connection or
 * the message framing (RFC 9110 section 7.6.1's hop-by-hop headers, Content-Length, Host,
 * Expect) are the HTTP client's: a webhook that sets them could make the receiver (or a proxy
 * on the way) read the body differently from how it was sent (request smuggling), or simply
 * have the request refused. records-api refuses them when a webhook is saved; the dispatcher
 * drops them from rendered headers (templated names, rows saved before the check).
 */
public final class WebhookHeaders {

    private static final Set<String> CONTROLLED_BY_CLIENT = Set.of(
            "connection",
            "content-length",
            "expect",
            "host",
            "keep-alive",
            "te",
            "trailer",
            "transfer-encoding",
            "upgrade",
            "http2-settings");
    private static final Pattern STATEMENT_OR_COMMENT = Pattern.compile("\\{%.*?%}|\\{#.*?#}");

    private WebhookHeaders() {}

    /** True for a header name a webhook must not set (any case; also every Proxy-* header). */
    public static boolean isControlledByClient(String name) {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        return CONTROLLED_BY_CLIENT.contains(lower) || lower.startsWith("proxy-");
    }

    /**
     * Save-time check of an additional_headers template: each line is "Name: value", and a name
     * written literally (block tags and comments around it are ignored) must not be one of the
     * client's headers. Names produced by expressions are checked when rendered.
     *
     * @return the problems, one per refused header, in order of appearance
     */
    public static List<String> problems(String additionalHeaders) {
        List<String> problems = new ArrayList<>();
        if (additionalHeaders == null) {
            return problems;
        }
        for (String line : additionalHeaders.split("\\r?\\n|\\r")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = STATEMENT_OR_COMMENT
                    .matcher(line.substring(0, colon))
                    .replaceAll("")
                    .strip();
            if (!name.contains("{") && isControlledByClient(name)) {
                problems.add("The " + name + " header cannot be set: it describes the connection or the message"
                        + " framing, which the HTTP client controls.");
            }
        }
        return problems;
    }

    /** {@link #problems(String)}'s first problem, if any. */
    public static Optional<String> validate(String additionalHeaders) {
        return problems(additionalHeaders).stream().findFirst();
    }
}
