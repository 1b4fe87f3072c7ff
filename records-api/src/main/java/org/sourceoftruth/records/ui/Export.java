package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * {@code ?export=csv} and {@code ?export=json} on a list page: every object of the current
 * filter (read page by page from the engine, at most {@link #MAX_ROWS}), as CSV of the table's
 * columns (values as the page shows them) or as the API's full representation.
 */
@ApplicationScoped
class Export {
    static final int MAX_ROWS = 100_000;
    private static final long BATCH = 1000;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    Response export(Model model, String format, Map<String, List<String>> params) {
        access.require(model, Access.Action.VIEW);
        if (!format.equals("csv") && !format.equals("json")) {
            throw ApiException.field("export", "Choose csv or json.");
        }
        Map<String, List<String>> query = ListView.engineQuery(params);
        String file = model.app() + "-" + model.path() + "." + format;
        if (format.equals("json")) {
            ArrayNode out = Json.MAPPER.createArrayNode();
            read(model, query, Renderer.Options.full(request.baseUrl()), out::add);
            return download(out.toPrettyString(), MediaType.APPLICATION_JSON, file);
        }
        List<Columns.Column> columns = Columns.of(model, new QueryString(params).first("columns"));
        StringBuilder csv = new StringBuilder();
        csv.append(csvField("id"));
        columns.forEach(c -> csv.append(',').append(csvField(c.name())));
        csv.append("\r\n");
        read(model, query, Renderer.Options.full(request.baseUrl()), o -> {
            csv.append(o.path("id").asText());
            for (Columns.Column c : columns) {
                Cell cell = Cell.of(o.get(c.name()));
                csv.append(',').append(csvField(cell.empty() ? "" : text(cell)));
            }
            csv.append("\r\n");
        });
        return download(csv.toString(), "text/csv; charset=utf-8", file);
    }

    private void read(
            Model model,
            Map<String, List<String>> query,
            Renderer.Options opts,
            java.util.function.Consumer<ObjectNode> sink) {
        long offset = 0;
        while (offset < MAX_ROWS) {
            ListQuery.Page page = service.list(model, query, opts, new ListQuery.PageRequest(BATCH, offset, null));
            List<ObjectNode> rows = page.results();
            rows.forEach(sink);
            if (rows.size() < BATCH) {
                return;
            }
            offset += BATCH;
        }
    }

    private static String text(Cell cell) {
        if (cell.items().isEmpty()) {
            return cell.text();
        }
        StringBuilder out = new StringBuilder();
        cell.items().forEach(i -> out.append(out.isEmpty() ? "" : ", ").append(i.text()));
        return out.toString();
    }

    /** RFC 4180 quoting; a leading =, +, - or @ is prefixed so that spreadsheets do not run it as a formula. */
    static String csvField(String value) {
        String v = value;
        if (!v.isEmpty() && "=+-@".indexOf(v.charAt(0)) >= 0 && !v.matches("-?[0-9.]+")) {
            v = "'" + v;
        }
        if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
            return "\"" + v.replace("\"", "\"\"") + "\"";
        }
        return v;
    }

    private static Response download(String body, String type, String file) {
        return Response.ok(body)
                .type(type)
                .header("Content-Disposition", "attachment; filename=\"" + file + "\"")
                .build();
    }
}
