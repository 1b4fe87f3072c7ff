package org.sourceoftruth.records.web;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.sourceoftruth.model.Json;

/**
 * DRF's content negotiation and NetBox's Accept-header versioning, for every API path but the
 * OpenAPI document (which has renderers of its own): the renderer that answers is chosen from
 * the {@code ?format=} parameter and the Accept header exactly as DRF's
 * DefaultContentNegotiation chooses it, before authentication, as DRF does:
 * <ul>
 *   <li>{@code ?format=} keeps only the renderer of that format ({@code json}, {@code api} for
 *       the browsable API; {@code txt} on the config rendering endpoints); none → 404;
 *   <li>the Accept header's media types are tried from the most specific (with parameters) to
 *       the least ({@code *}{@code /*}), q-values aside, and within one level in the renderers'
 *       order (JSON first). No match → 406 "Could not satisfy the request Accept header.".
 *       A missing header is {@code *}{@code /*}; so browsers get the browsable API and
 *       everything else JSON;
 *   <li>a {@code version} parameter on the matched media type other than the API version →
 *       406 "Invalid version in "Accept" header." (NetBox allows only its own version).
 * </ul>
 */
@ApplicationScoped
public class ContentNegotiation {
    /** What answers a request. */
    public enum Renderer {
        JSON("application", "json", "json"),
        BROWSABLE_API("text", "html", "api"),
        TEXT("text", "plain", "txt");

        final String mainType;
        final String subType;
        final String format;

        Renderer(String mainType, String subType, String format) {
            this.mainType = mainType;
            this.subType = subType;
            this.format = format;
        }
    }

    /** The renderers of NetBox's API views. */
    public static final List<Renderer> API = List.of(Renderer.JSON, Renderer.BROWSABLE_API);

    /** The config rendering actions' renderers (JSONRenderer, TextRenderer). */
    public static final List<Renderer> CONFIG_RENDERING = List.of(Renderer.JSON, Renderer.TEXT);

    private static final Pattern CONFIG_RENDERING_PATH = Pattern.compile(
            "^/api/(?:(?:dcim/devices|virtualization/virtual-machines)/[0-9]+/render-config|extras/config-templates/[0-9]+/render)/$");

    @Inject
    ApiConfig config;

    void install(@Observes Router router) {
        // after MalformedRequests (-999), before any resource or authentication
        router.route().order(-998).handler(this::check);
    }

    private void check(RoutingContext ctx) {
        String path = ctx.request().path();
        if (!(path.equals("/api/") || path.startsWith("/api/")) || path.startsWith("/api/schema")) {
            ctx.next();
            return;
        }
        try {
            select(
                    ctx.request().getHeader("Accept"),
                    format(ctx.queryParam("format")),
                    renderersOf(path),
                    config.apiVersion());
        } catch (ApiException e) {
            ctx.response()
                    .setStatusCode(e.status())
                    .putHeader("Content-Type", "application/json")
                    .end(e.body().toString());
            return;
        }
        ctx.next();
    }

    /** The renderers of the view at {@code path}. */
    public static List<Renderer> renderersOf(String path) {
        return CONFIG_RENDERING_PATH.matcher(path).matches() ? CONFIG_RENDERING : API;
    }

    /** Django's QueryDict gives a parameter's last value. */
    public static String format(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
    }

    /**
     * The renderer DRF picks, or the ApiException DRF raises (404 for an unknown format, 406 for
     * an Accept header no renderer satisfies or another API version).
     *
     * @param accept  the Accept header, null when absent
     * @param format  the {@code format} query parameter, null when absent
     * @param version the API version, null to skip the version check
     */
    public static Renderer select(String accept, String format, List<Renderer> renderers, String version) {
        if (accept == null && format == null) {
            return renderers.get(0); // no header is */*: the common case, without parsing
        }
        List<Renderer> candidates = renderers;
        if (format != null) {
            candidates = renderers.stream().filter(r -> r.format.equals(format)).toList();
            if (candidates.isEmpty()) {
                throw ApiException.notFound();
            }
        }
        List<List<MediaType>> levels =
                new ArrayList<>(List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
        for (String token : (accept == null ? "*/*" : accept).split(",", -1)) {
            MediaType type = MediaType.parse(token.trim());
            levels.get(3 - type.precedence()).add(type);
        }
        for (List<MediaType> level : levels) {
            for (Renderer renderer : candidates) {
                for (MediaType type : level) {
                    if (type.matches(renderer)) {
                        String asked = type.params().get("version");
                        if (version != null && asked != null && !asked.equals(version)) {
                            throw new ApiException(
                                    406,
                                    Json.MAPPER
                                            .createObjectNode()
                                            .put("detail", "Invalid version in \"Accept\" header."));
                        }
                        return renderer;
                    }
                }
            }
        }
        throw ApiException.detail(406, "Could not satisfy the request Accept header.");
    }

    /** One media range of an Accept header, parsed as Django's parse_header_parameters does. */
    record MediaType(String mainType, String subType, Map<String, String> params) {
        static MediaType parse(String text) {
            String[] parts = text.split(";", -1);
            String full = parts[0].trim().toLowerCase(Locale.ROOT);
            int slash = full.indexOf('/');
            String main = slash < 0 ? full : full.substring(0, slash).trim();
            String sub = slash < 0 ? "" : full.substring(slash + 1).trim();
            Map<String, String> params = new LinkedHashMap<>();
            for (int i = 1; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq > 0) {
                    String value = parts[i].substring(eq + 1).trim();
                    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                        value = value.substring(1, value.length() - 1);
                    }
                    params.put(parts[i].substring(0, eq).trim().toLowerCase(Locale.ROOT), value);
                }
            }
            return new MediaType(main, sub, params);
        }

        /** DRF's _MediaType.precedence: 3 with parameters (q aside), 2 type/subtype, 1 type/*, 0 *}{@code /*. */
        int precedence() {
            if (mainType.equals("*")) {
                return 0;
            }
            if (subType.equals("*")) {
                return 1;
            }
            return params.isEmpty() || (params.size() == 1 && params.containsKey("q")) ? 2 : 3;
        }

        boolean matches(Renderer r) {
            return (subType.equals("*") || subType.equals(r.subType))
                    && (mainType.equals("*") || mainType.equals(r.mainType));
        }
    }
}
