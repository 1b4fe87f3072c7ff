package org.sourceoftruth.records.api;

import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.Model;

/**
 * {@code ?export=<name>} on a list: the list's filtered objects rendered with an export template
 * (implemented by extras, which holds the templates) instead of a page of JSON.
 */
public interface ListExport {
    /**
     * @param name  the export template's name
     * @param query the list's query parameters (filters, saved filters, ordering)
     * @return the rendered export; 404 when no template of that name applies to the model
     */
    Response export(Model model, String name, Map<String, List<String>> query);
}
