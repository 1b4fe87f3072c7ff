package org.sourceoftruth.records.extras;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import org.sourceoftruth.records.api.ObjectPost;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.RequestContext;

/**
 * {@code POST /api/extras/scripts/<id>/}: NetBox queues a job that runs the script in an RQ
 * worker. No script runner exists here, so after NetBox's own checks (the script exists and is
 * visible: 404; the caller may run scripts, NetBox's {@code extras.run_script}: 403; the body is
 * JSON: 400) the request is refused with 501 and no job is made. NetBox answers a run it cannot
 * queue because no worker is running with 503 {@code "Unable to process request: RQ worker
 * process not running."}; here the refusal is permanent, not an outage to retry, hence 501.
 */
@ApplicationScoped
public class ScriptRun implements ObjectPost {
    static final String NO_RUNNER = "Unable to process request: no script runner exists on this server;"
            + " NetBox's custom scripts (Python) cannot be run here.";

    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Override
    public String contentType() {
        return "extras.script";
    }

    @Override
    public Response post(long id, String body) {
        Model script = registry.require("extras.script");
        RequestContext.Caller caller = request.caller();
        if (caller == null) {
            throw ApiException.detail(403, "Authentication credentials were not provided.");
        }
        access.require(script, Access.Action.VIEW);
        service.get(script, id, Renderer.Options.full(request.baseUrl())); // 404 for an unknown or invisible script
        if (!caller.writeEnabled() || !access.holds(script, "run")) {
            throw ApiException.detail(403, "This user does not have permission to run scripts.");
        }
        if (body != null && !body.isBlank()) {
            JsonBody.parse(body); // NetBox reads the body (data, commit) before it looks for a worker
        }
        throw ApiException.detail(501, NO_RUNNER);
    }
}
