package org.sourceoftruth.records.virtualization;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/** Cluster types and groups, clusters placed by scope, virtual machines and their interfaces. */
@QuarkusTest
class VirtualizationTest {

    @Test
    void clustersVirtualMachinesAndInterfaces() {
        String u = uniq();
        int site = Api.site("virt");
        int type = create("/api/virtualization/cluster-types/", Map.of("name", "vt-" + u, "slug", "vt-" + u));
        int group = create("/api/virtualization/cluster-groups/", Map.of("name", "vg-" + u, "slug", "vg-" + u));
        int cluster = create(
                "/api/virtualization/clusters/",
                Map.of("name", "c-" + u, "type", type, "group", group, "scope_type", "dcim.site", "scope_id", site));
        auth().get("/api/virtualization/clusters/" + cluster + "/")
                .then()
                .statusCode(200)
                .body("type.slug", equalTo("vt-" + u))
                .body("group.slug", equalTo("vg-" + u))
                .body("status.value", equalTo("active"))
                .body("scope_type", equalTo("dcim.site"))
                .body("scope.id", equalTo(site))
                .body("virtualmachine_count", equalTo(0));
        post("/api/virtualization/clusters/", Map.of("name", "c-" + u, "type", type, "group", group))
                .statusCode(400)
                .body("__all__", contains("Cluster with this Group and Name already exists."));
        auth().get("/api/virtualization/clusters/?site_id=" + site).then().body("count", equalTo(1));

        int vm = create(
                "/api/virtualization/virtual-machines/",
                Map.of("name", "vm-" + u, "cluster", cluster, "site", site, "vcpus", 2.5, "memory", 4096, "disk", 40));
        create(
                "/api/virtualization/virtual-machines/",
                Map.of("name", "vm2-" + u, "cluster", cluster, "vcpus", 1, "memory", 1024));
        auth().get("/api/virtualization/virtual-machines/" + vm + "/")
                .then()
                .statusCode(200)
                .body("status.value", equalTo("active"))
                .body("start_on_boot.value", equalTo("off"))
                .body("cluster.id", equalTo(cluster))
                .body("site.id", equalTo(site))
                .body("vcpus", equalTo(2.5f))
                .body("primary_ip", equalTo(null))
                .body("interface_count", equalTo(0))
                .body("config_context", equalTo(Map.of()));
        auth().get("/api/virtualization/virtual-machines/" + vm + "/?brief=1")
                .then()
                .body("name", equalTo("vm-" + u))
                .body("$", not(hasKey("config_context")));
        auth().get("/api/virtualization/clusters/" + cluster + "/")
                .then()
                .body("virtualmachine_count", equalTo(2))
                .body("allocated_vcpus", equalTo(3.5f))
                .body("allocated_memory", equalTo(5120))
                .body("allocated_disk", equalTo(40));
        post("/api/virtualization/virtual-machines/", Map.of("name", "VM-" + u, "cluster", cluster))
                .statusCode(400)
                .body("__all__", contains("Virtual machine name must be unique per cluster."));
        post("/api/virtualization/virtual-machines/", Map.of("name", "lonely-" + u))
                .statusCode(400)
                .body("__all__", contains("A virtual machine must be assigned to a site, cluster, or device."));
        auth().get("/api/virtualization/virtual-machines/?cluster_id=" + cluster)
                .then()
                .body("count", equalTo(2));
        auth().get("/api/virtualization/virtual-machines/?cluster_type=vt-" + u)
                .then()
                .body("count", equalTo(2));
        auth().get("/api/virtualization/virtual-machines/?cluster_group_id=" + group)
                .then()
                .body("count", equalTo(2));

        int vlan = create("/api/ipam/vlans/", Map.of("vid", 42, "name", "vl-" + u));
        int eth = create(
                "/api/virtualization/interfaces/",
                Map.of(
                        "virtual_machine",
                        vm,
                        "name",
                        "eth10",
                        "mode",
                        "tagged",
                        "untagged_vlan",
                        vlan,
                        "tagged_vlans",
                        List.of(vlan),
                        "mtu",
                        1500));
        create("/api/virtualization/interfaces/", Map.of("virtual_machine", vm, "name", "eth2", "parent", eth));
        auth().get("/api/virtualization/interfaces/?virtual_machine_id=" + vm)
                .then()
                .body("results.name", contains("eth2", "eth10"))
                .body("results[0].parent.name", equalTo("eth10"))
                .body("results[0].parent.virtual_machine.id", equalTo(vm))
                .body("results[1].untagged_vlan.vid", equalTo(42))
                .body("results[1].tagged_vlans[0].id", equalTo(vlan))
                .body("results[1].mode.value", equalTo("tagged"));
        post("/api/virtualization/interfaces/", Map.of("virtual_machine", vm, "name", "eth2"))
                .statusCode(400)
                .body("__all__", contains("Interface with this Virtual machine and Name already exists."));
        auth().get("/api/virtualization/interfaces/?vlan_id=" + vlan).then().body("count", equalTo(1));
        auth().get("/api/ipam/vlans/?vminterface_id=" + eth).then().body("count", equalTo(1));
        auth().get("/api/virtualization/virtual-machines/" + vm + "/").then().body("interface_count", equalTo(2));
        // device interfaces carry VLANs too
        int[] tr = Api.deviceTypeAndRole();
        int dev = Api.device(site, tr, "vdev-" + u);
        int dif = create(
                "/api/dcim/interfaces/",
                Map.of(
                        "device",
                        dev,
                        "name",
                        "ge-0/0/1",
                        "type",
                        "1000base-t",
                        "mode",
                        "access",
                        "untagged_vlan",
                        vlan));
        auth().get("/api/dcim/interfaces/" + dif + "/")
                .then()
                .body("untagged_vlan.id", equalTo(vlan))
                .body("tagged_vlans", equalTo(List.of()))
                .body("count_ipaddresses", equalTo(0));
        auth().get("/api/ipam/vlans/?interface_id=" + dif).then().body("count", equalTo(1));
        auth().body(Map.of("cluster", cluster))
                .patch("/api/dcim/devices/" + dev + "/")
                .then()
                .statusCode(200)
                .body("cluster.id", equalTo(cluster));
        auth().get("/api/virtualization/clusters/" + cluster + "/").then().body("device_count", equalTo(1));
        // the cluster is protected while VMs use it; the VM takes its interfaces along
        auth().delete("/api/virtualization/clusters/" + cluster + "/").then().statusCode(409);
        auth().delete("/api/virtualization/virtual-machines/" + vm + "/").then().statusCode(204);
        auth().get("/api/virtualization/interfaces/" + eth + "/").then().statusCode(404);
    }
}
