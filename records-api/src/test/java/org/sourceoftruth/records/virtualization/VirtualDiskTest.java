package org.sourceoftruth.records.virtualization;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Virtual disks, and a virtual machine's disk as their total size. */
@QuarkusTest
class VirtualDiskTest {

    @Test
    void machineDiskIsTheTotalOfItsVirtualDisks() {
        String u = uniq();
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "cl-" + u, "type", type));
        int vm = create(
                "/api/virtualization/virtual-machines/", Map.of("name", "vm-" + u, "cluster", cluster, "disk", 50));
        int other = create("/api/virtualization/virtual-machines/", Map.of("name", "other-" + u, "cluster", cluster));
        auth().get("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .body("disk", equalTo(50))
                .body("virtual_disk_count", equalTo(0));

        int root = create(
                "/api/virtualization/virtual-disks/", Map.of("virtual_machine", vm, "name", "root", "size", 100));
        create("/api/virtualization/virtual-disks/", Map.of("virtual_machine", vm, "name", "data", "size", 400));
        auth().get("/api/virtualization/virtual-disks/" + root + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("root"))
                .body("virtual_machine.id", equalTo(vm))
                .body("size", equalTo(100));
        post("/api/virtualization/virtual-disks/", Map.of("virtual_machine", vm, "name", "root", "size", 1))
                .statusCode(400)
                .body("__all__", contains("Virtual disk with this Virtual machine and Name already exists."));
        post("/api/virtualization/virtual-disks/", Map.of("virtual_machine", vm, "name", "neg", "size", -1))
                .statusCode(400);
        auth().get("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .body("disk", equalTo(500))
                .body("virtual_disk_count", equalTo(2));
        auth().get("/api/virtualization/virtual-machines/?disk=500&cluster_id=" + cluster)
                .then()
                .body("results.id", contains(vm));
        auth().get("/api/virtualization/virtual-machines/?virtual_disk_count=2&cluster_id=" + cluster)
                .then()
                .body("results.id", contains(vm));
        auth().get("/api/virtualization/clusters/" + cluster + "/").then().body("allocated_disk", equalTo(500));
        auth().get("/api/virtualization/virtual-disks/?virtual_machine_id=" + vm + "&size__gte=200")
                .then()
                .body("results.name", contains("data"));

        // with disks, a disk size given for the machine must be their total
        auth().contentType("application/json")
                .body(Map.of("disk", 10))
                .patch("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .statusCode(400)
                .body(
                        "disk",
                        contains("The specified disk size (10) must match the aggregate size of assigned"
                                + " virtual disks (500)."));
        auth().contentType("application/json")
                .body(Map.of("description", "still fine"))
                .patch("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .statusCode(200)
                .body("disk", equalTo(500));
        auth().contentType("application/json")
                .body(Map.of("size", 150))
                .patch("/api/virtualization/virtual-disks/" + root + "/")
                .then()
                .statusCode(200);
        auth().get("/api/virtualization/virtual-machines/" + vm + "/").then().body("disk", equalTo(550));
        auth().get("/api/virtualization/virtual-machines/" + other + "/").then().body("disk", nullValue());
        // a machine takes its disks along
        auth().delete("/api/virtualization/virtual-machines/" + vm + "/").then().statusCode(204);
        auth().get("/api/virtualization/virtual-disks/" + root + "/").then().statusCode(404);
    }

    /**
     * NetBox's update_virtualmachine_disk: every disk write stores the total in the machine's
     * disk, so once the last disk is deleted the machine's disk is null, not the size it had
     * before it had disks; the machine's update is in the change log of the request.
     */
    @Test
    void machineDiskIsNullOnceItsLastVirtualDiskIsDeleted() {
        String u = uniq();
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "ct-" + u, "slug", "ct-" + u));
        int cluster = create("/api/virtualization/clusters/", Map.of("name", "cl-" + u, "type", type));
        int vm = create(
                "/api/virtualization/virtual-machines/", Map.of("name", "vm-" + u, "cluster", cluster, "disk", 50));
        int only = create(
                "/api/virtualization/virtual-disks/", Map.of("virtual_machine", vm, "name", "root", "size", 100));
        auth().get("/api/virtualization/virtual-machines/" + vm + "/").then().body("disk", equalTo(100));
        auth().get("/api/virtualization/virtual-machines/?disk=100&id=" + vm)
                .then()
                .body("results.id", contains(vm));

        String request = auth().delete("/api/virtualization/virtual-disks/" + only + "/")
                .then()
                .statusCode(204)
                .extract()
                .header("X-Request-ID");
        auth().get("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .body("disk", nullValue())
                .body("virtual_disk_count", equalTo(0));
        auth().get("/api/virtualization/virtual-machines/?disk__empty=true&id=" + vm)
                .then()
                .body("results.id", contains(vm));
        auth().get("/api/core/object-changes/?request_id=" + request
                        + "&changed_object_type=virtualization.virtualmachine")
                .then()
                .body("results.changed_object_id", contains(vm))
                .body("results[0].action.value", equalTo("update"))
                .body("results[0].prechange_data.disk", equalTo(100))
                .body("results[0].postchange_data.disk", nullValue());
        auth().get("/api/core/object-changes/?request_id=" + request
                        + "&changed_object_type=virtualization.virtualdisk")
                .then()
                .body("results.changed_object_id", contains(only));

        // a size may be given again once the machine has no disks
        auth().contentType("application/json")
                .body(Map.of("disk", 70))
                .patch("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .statusCode(200)
                .body("disk", equalTo(70));
        // a machine deleted with its disks needs no update
        create("/api/virtualization/virtual-disks/", Map.of("virtual_machine", vm, "name", "a", "size", 5));
        auth().delete("/api/virtualization/virtual-machines/" + vm + "/").then().statusCode(204);
    }
}
