package org.sourceoftruth.records.virtualization;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * NetBox 4.6's virtual machine types: a virtual machine created with a type takes the type's
 * platform, vCPUs and memory where it leaves them empty, and keeps its own otherwise; the type
 * counts its machines, filters them, and is protected while it has any.
 */
@QuarkusTest
class VirtualMachineTypeTest {

    @Test
    void aNewMachineTakesItsTypesDefaults() {
        String u = uniq();
        int platform = create("/api/dcim/platforms/", Map.of("name", "pf-" + u, "slug", "pf-" + u));
        int type = create(
                "/api/virtualization/virtual-machine-types/",
                Map.of(
                        "name",
                        "Small " + u,
                        "slug",
                        "small-" + u,
                        "default_platform",
                        platform,
                        "default_vcpus",
                        2,
                        "default_memory",
                        4096));
        int site = Api.site("vmt");
        int plain = create(
                "/api/virtualization/virtual-machines/",
                Map.of("name", "vm1-" + u, "site", site, "virtual_machine_type", type));
        auth().get("/api/virtualization/virtual-machines/" + plain + "/")
                .then()
                .statusCode(200)
                .body("virtual_machine_type.id", equalTo(type))
                .body("virtual_machine_type.slug", equalTo("small-" + u))
                .body("platform.id", equalTo(platform))
                .body("vcpus", equalTo(2.0f))
                .body("memory", equalTo(4096));
        int own = create(
                "/api/virtualization/virtual-machines/",
                Map.of("name", "vm2-" + u, "site", site, "virtual_machine_type", type, "memory", 512));
        auth().get("/api/virtualization/virtual-machines/" + own + "/")
                .then()
                .body("memory", equalTo(512))
                .body("vcpus", equalTo(2.0f));
        // defaults apply on create only: a later change of the type changes no machine
        auth().body(Map.of("default_memory", 8192))
                .patch("/api/virtualization/virtual-machine-types/" + type + "/")
                .then()
                .statusCode(200)
                .body("virtual_machine_count", equalTo(2))
                .body("default_platform.id", equalTo(platform));
        auth().get("/api/virtualization/virtual-machines/" + plain + "/").then().body("memory", equalTo(4096));
        int untyped = create("/api/virtualization/virtual-machines/", Map.of("name", "vm3-" + u, "site", site));
        auth().get("/api/virtualization/virtual-machines/" + untyped + "/")
                .then()
                .body("virtual_machine_type", nullValue())
                .body("platform", nullValue());
        String ofSite = "/api/virtualization/virtual-machines/?ordering=id&site_id=" + site;
        auth().get(ofSite + "&virtual_machine_type_id=" + type).then().body("results.id", contains(plain, own));
        auth().get(ofSite + "&virtual_machine_type=small-" + u).then().body("results.id", contains(plain, own));
        auth().get("/api/virtualization/virtual-machine-types/?default_platform_id=" + platform)
                .then()
                .body("results.id", contains(type));
        auth().delete("/api/virtualization/virtual-machine-types/" + type + "/")
                .then()
                .statusCode(409);
    }

    @Test
    void aTypeNameIsUniqueWhateverItsCase() {
        String u = uniq();
        create("/api/virtualization/virtual-machine-types/", Map.of("name", "Large " + u, "slug", "l1-" + u));
        auth().body(Map.of("name", "LARGE " + u.toUpperCase(), "slug", "l2-" + u))
                .post("/api/virtualization/virtual-machine-types/")
                .then()
                .statusCode(400)
                .body("__all__", contains("Virtual machine type name must be unique."));
    }
}
