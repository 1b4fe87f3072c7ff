package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.List;

/** One object as a table row: its id, its page, its name and the columns' values. */
@TemplateData
public record RowView(long id, String href, String display, List<Cell> cells) {
    static RowView of(ObjectNode object, List<Columns.Column> columns) {
        List<Cell> cells = new ArrayList<>();
        for (Columns.Column c : columns) {
            cells.add(Cell.of(object.get(c.name())));
        }
        String href = Cell.relative(object.get("display_url"));
        return new RowView(
                object.path("id").asLong(),
                href,
                object.path("display").asText("#" + object.path("id").asText()),
                cells);
    }

    static List<RowView> of(List<ObjectNode> objects, List<Columns.Column> columns) {
        List<RowView> rows = new ArrayList<>(objects.size());
        objects.forEach(o -> rows.add(of(o, columns)));
        return rows;
    }
}
