package org.sourceoftruth.records.extras;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sourceoftruth.records.Api.uniq;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Accounts;
import org.sourceoftruth.records.Api;

/**
 * extras/scripts: the scripts that exist (rows only: no API creates one) in NetBox's shape, and a
 * run refused with 501 because no script runner exists; no job is made, nothing changes.
 */
@QuarkusTest
class ScriptsTest {
    @Inject
    AgroalDataSource dataSource;

    /** A script as an uploaded module would hold it in NetBox, written to its table. */
    private long script(String name) throws Exception {
        try (Connection c = dataSource.getConnection()) {
            long module;
            try (PreparedStatement st =
                    c.prepareStatement("insert into extras_scriptmodule (file_path) values (?) returning id")) {
                st.setString(1, "m_" + uniq() + ".py");
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    module = rs.getLong(1);
                }
            }
            try (PreparedStatement st =
                    c.prepareStatement("insert into extras_script (module_id, name) values (?, ?) returning id")) {
                st.setLong(1, module);
                st.setString(2, name);
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }

    private long count(String sql) throws Exception {
        try (Connection c = dataSource.getConnection();
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void scriptsAreListedAndCannotBeCreatedThroughTheApi() throws Exception {
        String name = "Check" + uniq();
        long id = script(name);
        Api.auth()
                .get("/api/extras/scripts/?name=" + name)
                .then()
                .statusCode(200)
                .body("count", equalTo(1))
                .body("results[0].id", equalTo((int) id))
                .body("results[0].display", equalTo(name))
                .body("results[0].is_executable", equalTo(true))
                .body("results[0].result", nullValue())
                .body("results[0].vars", nullValue())
                .body("results[0].url", startsWith("http"))
                .body("results[0].display_url", startsWith("http"));
        Api.auth()
                .get("/api/extras/scripts/?name__ic=" + name.substring(2))
                .then()
                .body("results.id", hasItem((int) id));
        Api.auth().get("/api/extras/scripts/?name=nope" + uniq()).then().body("count", equalTo(0));
        Api.post("/api/extras/scripts/", Map.of("name", "x")).statusCode(405);
        Api.auth()
                .body(Map.of("name", "y"))
                .patch("/api/extras/scripts/" + id + "/")
                .then()
                .statusCode(405);
    }

    @Test
    void runningAScriptIsRefusedWithNoJob() throws Exception {
        long id = script("Run" + uniq());
        long jobs = count("select count(*) from core_job");
        Api.auth()
                .body(Map.of("data", Map.of(), "commit", true))
                .post("/api/extras/scripts/" + id + "/")
                .then()
                .statusCode(501)
                .body("detail", startsWith("Unable to process request: no script runner exists"));
        Api.auth()
                .body("{\"data\": ")
                .post("/api/extras/scripts/" + id + "/")
                .then()
                .statusCode(400);
        Api.auth().body(Map.of()).post("/api/extras/scripts/987654321/").then().statusCode(404);
        // a user who may see scripts but not run them: 403, as NetBox's extras.run_script
        Accounts.Account viewer = Accounts.account("sv");
        Accounts.permission(List.of("extras.script"), List.of("view"), null, List.of(viewer.id()));
        viewer.api().get("/api/extras/scripts/" + id + "/").then().statusCode(200);
        viewer.api()
                .body(Map.of())
                .post("/api/extras/scripts/" + id + "/")
                .then()
                .statusCode(403)
                .body("detail", equalTo("This user does not have permission to run scripts."));
        Accounts.Account runner = Accounts.account("sr");
        Accounts.permission(List.of("extras.script"), List.of("view", "run"), null, List.of(runner.id()));
        runner.api()
                .body(Map.of())
                .post("/api/extras/scripts/" + id + "/")
                .then()
                .statusCode(501);
        assertEquals(jobs, count("select count(*) from core_job"), "a refused run makes no job");
        // an event rule cannot run it either: the script action is refused, naming action_type
        Api.post(
                        "/api/extras/event-rules/",
                        Map.of(
                                "name",
                                "s-" + uniq(),
                                "object_types",
                                List.of("dcim.site"),
                                "event_types",
                                List.of("object_created"),
                                "action_type",
                                "script",
                                "action_object_type",
                                "extras.script",
                                "action_object_id",
                                id))
                .statusCode(400)
                .body(
                        "action_type[0]",
                        equalTo("Event rules cannot run scripts here: no script runner exists on this server."));
        // other models' objects take no POST
        int site = Api.site("sp");
        Api.auth().body(Map.of()).post("/api/dcim/sites/" + site + "/").then().statusCode(405);
    }
}
