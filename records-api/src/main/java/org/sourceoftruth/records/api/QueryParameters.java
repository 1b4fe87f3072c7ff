package org.sourceoftruth.records.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.engine.query.FilterCompiler;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * What a list or detail request's query string asks for besides filters: the page (NetBox's
 * limit and offset, or a cursor) and the representation (brief, fields, omit, exclude).
 */
@ApplicationScoped
public class QueryParameters {
    @Inject
    ApiConfig config;

    @Inject
    RequestContext request;

    @Inject
    FilterCompiler filters;

    /** The first value of a query parameter, or null. */
    private static String first(Map<String, List<String>> q, String name) {
        List<String> v = q.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** The page asked for: cursor mode when {@code start} is given, else limit and offset. */
    public ListQuery.PageRequest page(Map<String, List<String>> q) {
        Long start = parseStart(q);
        return new ListQuery.PageRequest(effectiveLimit(first(q, "limit")), parseOffset(first(q, "offset")), start);
    }

    /**
     * The page of a model's list: as {@link #page(Map)}, except that {@code start} is no cursor
     * when the model has a filter of that name (an ASN range's start; see {@link FilterCompiler#CURSOR}).
     */
    public ListQuery.PageRequest page(Model model, Map<String, List<String>> q) {
        if (filters.cursorIsFilter(model, FilterCompiler.CURSOR)) {
            return new ListQuery.PageRequest(effectiveLimit(first(q, "limit")), parseOffset(first(q, "offset")), null);
        }
        return page(q);
    }

    /** The representation asked for: ?brief, ?fields= (which wins over brief), ?omit=, ?exclude=config_context. */
    Renderer.Options renderOptions(Map<String, List<String>> q) {
        String brief = first(q, "brief");
        Set<String> include = null;
        String fields = first(q, "fields");
        if (fields != null && !fields.isBlank()) {
            include = new HashSet<>(Arrays.asList(fields.split(",")));
            include.removeIf(String::isBlank);
        }
        Set<String> omit = new HashSet<>();
        String omitParam = first(q, "omit");
        if (omitParam != null) {
            omit.addAll(Arrays.asList(omitParam.split(",")));
        }
        String exclude = first(q, "exclude");
        if (exclude != null && exclude.contains("config_context")) {
            omit.add("config_context");
        }
        boolean briefMode = brief != null && !brief.isEmpty() && include == null;
        return new Renderer.Options(
                request.baseUrl(), briefMode ? Renderer.Mode.BRIEF : Renderer.Mode.FULL, include, omit);
    }

    /** NetBox's effective limit: default page size, capped by MAX_PAGE_SIZE; 0 = all when unlimited. */
    private Long effectiveLimit(String raw) {
        long limit;
        try {
            limit = raw == null ? -1 : Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            limit = -1;
        }
        boolean unlimited = config.maxPageSize() <= 0;
        if (limit < 0) {
            return unlimited ? (long) config.paginateCount() : Math.min(config.paginateCount(), config.maxPageSize());
        }
        if (limit == 0) {
            return unlimited ? null : (long) config.maxPageSize();
        }
        return unlimited ? limit : Math.min(limit, config.maxPageSize());
    }

    private static long parseOffset(String raw) {
        try {
            return raw == null ? 0 : Math.max(0, Long.parseLong(raw.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Long parseStart(Map<String, List<String>> q) {
        String raw = first(q, "start");
        if (raw == null) {
            return null;
        }
        if (first(q, "offset") != null) {
            throw ApiException.list("'start' and 'offset' are mutually exclusive.");
        }
        if (first(q, "ordering") != null) {
            throw ApiException.list("Ordering cannot be specified in conjunction with cursor-based pagination.");
        }
        try {
            long v = Long.parseLong(raw.trim());
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiException.list("Invalid 'start' parameter: must be a non-negative integer.");
        }
    }
}
