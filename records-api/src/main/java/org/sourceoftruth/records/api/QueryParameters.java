package org.sourceoftruth.records.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
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
    private static final java.util.regex.Pattern WHOLE_NUMBER = java.util.regex.Pattern.compile("[+-]?[0-9]+");

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

    /**
     * NetBox's effective limit: default page size, capped by MAX_PAGE_SIZE; 0 = all when
     * unlimited. Any whole number counts, however large (Python's int has no bound): beyond
     * 64 bits it is capped like any other large limit.
     */
    private Long effectiveLimit(String raw) {
        long limit = wholeNumber(raw);
        boolean unlimited = config.maxPageSize() <= 0;
        if (limit < 0) {
            return unlimited ? (long) config.paginateCount() : Math.min(config.paginateCount(), config.maxPageSize());
        }
        if (limit == 0) {
            return unlimited ? null : (long) config.maxPageSize();
        }
        return unlimited ? limit : Math.min(limit, config.maxPageSize());
    }

    /**
     * DRF's offset: invalid or negative means 0. One beyond PostgreSQL's bigint (where NetBox's
     * query fails) is a 400 naming the parameter.
     */
    private static long parseOffset(String raw) {
        BigInteger offset = wholeNumberExactly(raw);
        if (offset == null || offset.signum() < 0) {
            return 0;
        }
        if (offset.bitLength() >= 64) {
            throw ApiException.field("offset", "Ensure this value is less than or equal to " + Long.MAX_VALUE + ".");
        }
        return offset.longValue();
    }

    /**
     * A query parameter as Python's int() reads it (surrounding blanks, a sign): -1 when it is
     * none, {@link Long#MAX_VALUE} for any larger positive number.
     */
    private static long wholeNumber(String raw) {
        BigInteger n = wholeNumberExactly(raw);
        if (n == null || n.signum() < 0) {
            return -1;
        }
        return n.bitLength() < 64 ? n.longValue() : Long.MAX_VALUE;
    }

    private static BigInteger wholeNumberExactly(String raw) {
        if (raw == null) {
            return null;
        }
        String text = raw.trim();
        // Python's int() takes at most 4300 digits; the URL length limit keeps this far below
        if (text.isEmpty()
                || text.length() > 4300
                || !WHOLE_NUMBER.matcher(text).matches()) {
            return null;
        }
        return new BigInteger(text.startsWith("+") ? text.substring(1) : text);
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
