package org.sourceoftruth.records.ui;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;

/**
 * A relation picker's search: the {@code <option>}s of the target model matching {@code q},
 * keeping the ones selected (the select's own values, sent under the field's name, {@code field}).
 */
@ApplicationScoped
class RelationOptionsFragment {
    @Inject
    RelationOptions relations;

    @Location("ui/options")
    Template options;

    Response render(Model target, Map<String, List<String>> query) {
        QueryString q = new QueryString(query);
        String field = q.first("field");
        List<Long> selected =
                field == null || field.equals("q") ? List.of() : DeleteView.ids(nonEmpty(query.get(field)));
        List<FilterForm.Option> found =
                relations.options(target, q.first("q"), selected, null, "1".equals(q.first("empty")));
        if (found == null) {
            throw ApiException.forbidden();
        }
        return Response.ok(options.data("options", found).render())
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .build();
    }

    private static List<String> nonEmpty(List<String> values) {
        return values == null ? null : values.stream().filter(v -> !v.isBlank()).toList();
    }
}
