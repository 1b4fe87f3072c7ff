package org.sourceoftruth.records.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.sourceoftruth.records.api.ApiException;
import org.sourceoftruth.records.api.RequestContext;
import org.sourceoftruth.records.model.Model;

import java.util.List;
import java.util.Optional;

/**
 * Who may do what. Reads need a token unless the model is listed in EXEMPT_VIEW_PERMISSIONS;
 * writes always need a write-enabled token. Superusers may do everything; object permissions
 * for other users are granted per model and action (see the users/permissions issue) — until
 * those exist, other users may read but not write.
 */
@ApplicationScoped
public class Access {
    public enum Action { VIEW, ADD, CHANGE, DELETE }

    @Inject
    RequestContext request;
    @ConfigProperty(name = "sot.exempt-view-permissions")
    Optional<List<String>> exemptViews;

    public void require(Model model, Action action) {
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            if (action == Action.VIEW && isExempt(model)) {
                return;
            }
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
        if (action != Action.VIEW && (!caller.writeEnabled() || !caller.superuser())) {
            throw ApiException.forbidden();
        }
    }

    /** Reads that are not about a model (API root excepted): status, schema. */
    public void requireAuthenticated() {
        if (request.caller() == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
    }

    private boolean isExempt(Model model) {
        List<String> list = exemptViews.orElse(List.of());
        return list.contains("*") || list.contains(model.contentType());
    }
}
