package org.sourceoftruth.records.circuits;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Provider accounts and networks, circuits on accounts and terminated at provider networks,
 * circuit groups with circuit and virtual circuit members, virtual circuits and their
 * terminations on virtual interfaces.
 */
@QuarkusTest
class ProvidersAndVirtualCircuitsTest {

    private static int provider(String u) {
        return create("/api/circuits/providers/", Map.of("name", "P " + u, "slug", "p-" + u));
    }

    @Test
    void accountsNetworksAndCircuitsOnThem() {
        String u = uniq();
        int provider = provider(u);
        int other = provider("o" + u);
        int account = create(
                "/api/circuits/provider-accounts/",
                Map.of("provider", provider, "account", "ACC-" + u, "name", "Main " + u));
        int bare = create("/api/circuits/provider-accounts/", Map.of("provider", provider, "account", "BARE-" + u));
        int foreign = create("/api/circuits/provider-accounts/", Map.of("provider", other, "account", "F-" + u));
        auth().get("/api/circuits/provider-accounts/" + account + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("ACC-" + u + " (Main " + u + ")"))
                .body("provider.id", equalTo(provider));
        auth().get("/api/circuits/provider-accounts/" + bare + "/?brief=1")
                .then()
                .body("display", equalTo("BARE-" + u))
                .body("account", equalTo("BARE-" + u));
        post("/api/circuits/provider-accounts/", Map.of("provider", provider, "account", "ACC-" + u))
                .statusCode(400)
                .body("__all__", contains("Provider account with this Provider and Account ID already exists."));
        // names are unique per provider, but any number of accounts may have none
        post(
                        "/api/circuits/provider-accounts/",
                        Map.of("provider", provider, "account", "DUP-" + u, "name", "Main " + u))
                .statusCode(400);
        int bare2 = create("/api/circuits/provider-accounts/", Map.of("provider", provider, "account", "BARE2-" + u));
        auth().delete("/api/circuits/provider-accounts/" + bare2 + "/").then().statusCode(204);
        auth().get("/api/circuits/providers/" + provider + "/").then().body("accounts.id", contains(account, bare));
        auth().get("/api/circuits/provider-accounts/?provider=p-" + u + "&ordering=account")
                .then()
                .body("results.id", contains(account, bare));

        int network = create(
                "/api/circuits/provider-networks/",
                Map.of("provider", provider, "name", "Net " + u, "service_id", "SVC-" + u));
        post("/api/circuits/provider-networks/", Map.of("provider", provider, "name", "Net " + u))
                .statusCode(400);
        int type = create("/api/circuits/circuit-types/", Map.of("name", "T " + u, "slug", "t-" + u));
        post(
                        "/api/circuits/circuits/",
                        Map.of("cid", "X-" + u, "provider", provider, "type", type, "provider_account", foreign))
                .statusCode(400)
                .body("provider_account", contains("The assigned account must belong to the assigned provider."));
        int circuit = create(
                "/api/circuits/circuits/",
                Map.of("cid", "C-" + u, "provider", provider, "type", type, "provider_account", account));
        int plain = create("/api/circuits/circuits/", Map.of("cid", "D-" + u, "provider", provider, "type", type));
        auth().get("/api/circuits/circuits/" + circuit + "/").then().body("provider_account.id", equalTo(account));
        auth().get("/api/circuits/circuits/?provider_account=ACC-" + u).then().body("results.id", contains(circuit));
        auth().get("/api/circuits/circuits/?provider_account_id=" + account)
                .then()
                .body("results.id", contains(circuit));

        // a termination may end at a provider network
        int term = create(
                "/api/circuits/circuit-terminations/",
                Map.of(
                        "circuit",
                        circuit,
                        "term_side",
                        "Z",
                        "termination_type",
                        "circuits.providernetwork",
                        "termination_id",
                        network));
        auth().get("/api/circuits/circuit-terminations/" + term + "/")
                .then()
                .body("termination.id", equalTo(network))
                .body("termination.name", equalTo("Net " + u));
        auth().get("/api/circuits/circuit-terminations/?provider_network_id=" + network)
                .then()
                .body("results.id", contains(term));
        auth().get("/api/circuits/circuits/?provider_network_id=" + network + "&provider_id=" + provider)
                .then()
                .body("results.id", contains(circuit));
        auth().get("/api/circuits/circuits/?provider_network_id=999999999")
                .then()
                .statusCode(400);
        post(
                        "/api/circuits/circuit-terminations/",
                        Map.of(
                                "circuit",
                                plain,
                                "term_side",
                                "A",
                                "termination_type",
                                "circuits.provider",
                                "termination_id",
                                provider))
                .statusCode(400)
                .body("termination_type", hasItem("Invalid content type: circuits.provider"));

        // accounts in use are protected, and so are networks with terminations (a site takes them along)
        auth().delete("/api/circuits/provider-accounts/" + account + "/").then().statusCode(409);
        auth().delete("/api/circuits/provider-networks/" + network + "/").then().statusCode(409);
        auth().delete("/api/circuits/circuit-terminations/" + term + "/").then().statusCode(204);
        auth().delete("/api/circuits/provider-networks/" + network + "/").then().statusCode(204);
    }

    @Test
    void virtualCircuitsTerminateOnVirtualInterfacesAndJoinGroups() {
        String u = uniq();
        int provider = provider(u);
        int other = provider("o" + u);
        int network = create("/api/circuits/provider-networks/", Map.of("provider", provider, "name", "N " + u));
        int foreign = create("/api/circuits/provider-accounts/", Map.of("provider", other, "account", "F-" + u));
        int vcType = create(
                "/api/circuits/virtual-circuit-types/",
                Map.of("name", "VT " + u, "slug", "vt-" + u, "color", "00ff00"));
        post(
                        "/api/circuits/virtual-circuits/",
                        Map.of(
                                "cid",
                                "V-" + u,
                                "provider_network",
                                network,
                                "type",
                                vcType,
                                "provider_account",
                                foreign))
                .statusCode(400)
                .body(
                        "provider_account",
                        contains("The assigned account must belong to the provider of the assigned network."));
        int vc = create(
                "/api/circuits/virtual-circuits/",
                Map.of("cid", "V-" + u, "provider_network", network, "type", vcType, "status", "planned"));
        auth().get("/api/circuits/virtual-circuits/" + vc + "/")
                .then()
                .statusCode(200)
                .body("display", equalTo("V-" + u))
                .body("provider_network.id", equalTo(network))
                .body("provider_account", nullValue())
                .body("status.value", equalTo("planned"));
        auth().get("/api/circuits/virtual-circuit-types/" + vcType + "/")
                .then()
                .body("virtual_circuit_count", equalTo(1));
        auth().get("/api/circuits/virtual-circuits/?provider=p-" + u).then().body("results.id", contains(vc));

        int site = Api.site("vc");
        int device = Api.device(site, Api.deviceTypeAndRole(), "vc-" + u);
        int physical = create("/api/dcim/interfaces/", Map.of("device", device, "name", "eth0", "type", "1000base-t"));
        int virtual = create("/api/dcim/interfaces/", Map.of("device", device, "name", "vc0", "type", "virtual"));
        post("/api/circuits/virtual-circuit-terminations/", Map.of("virtual_circuit", vc, "interface", physical))
                .statusCode(400)
                .body("__all__", contains("Virtual circuits may be terminated only to virtual interfaces."));
        int term = create(
                "/api/circuits/virtual-circuit-terminations/",
                Map.of("virtual_circuit", vc, "interface", virtual, "role", "hub"));
        auth().get("/api/circuits/virtual-circuit-terminations/" + term + "/")
                .then()
                .body("display", equalTo("V-" + u + ": Hub termination"))
                .body("interface.id", equalTo(virtual))
                .body("role.value", equalTo("hub"));
        post("/api/circuits/virtual-circuit-terminations/", Map.of("virtual_circuit", vc, "interface", virtual))
                .statusCode(400);
        auth().get("/api/circuits/virtual-circuit-terminations/?provider_network_id=" + network)
                .then()
                .body("results.id", contains(term));
        auth().get("/api/circuits/virtual-circuit-terminations/?provider_id=" + provider + "&role=hub")
                .then()
                .body("results.id", contains(term));
        // NetBox's PassThroughPortMixin: no cable path passes a virtual circuit termination
        auth().get("/api/circuits/virtual-circuit-terminations/" + term + "/paths/")
                .then()
                .statusCode(200)
                .body("size()", equalTo(0));
        auth().get("/api/circuits/virtual-circuit-terminations/999999999/paths/")
                .then()
                .statusCode(404);
        auth().get("/api/dcim/interfaces/?virtual_circuit_id=" + vc).then().body("results.id", contains(virtual));
        auth().get("/api/dcim/interfaces/?virtual_circuit_termination_id=" + term)
                .then()
                .body("results.id", contains(virtual));

        // a group holds circuits and virtual circuits alike
        int type = create("/api/circuits/circuit-types/", Map.of("name", "T " + u, "slug", "t-" + u));
        int circuit = create("/api/circuits/circuits/", Map.of("cid", "C-" + u, "provider", provider, "type", type));
        int group = create("/api/circuits/circuit-groups/", Map.of("name", "G " + u, "slug", "g-" + u));
        int a1 = create(
                "/api/circuits/circuit-group-assignments/",
                Map.of("group", group, "member_type", "circuits.circuit", "member_id", circuit, "priority", "primary"));
        int a2 = create(
                "/api/circuits/circuit-group-assignments/",
                Map.of("group", group, "member_type", "circuits.virtualcircuit", "member_id", vc));
        auth().get("/api/circuits/circuit-group-assignments/" + a1 + "/")
                .then()
                .body("display", equalTo("G " + u + " (Primary)"))
                .body("member.cid", equalTo("C-" + u))
                .body("priority.value", equalTo("primary"));
        auth().get("/api/circuits/circuit-group-assignments/" + a2 + "/")
                .then()
                .body("display", equalTo("G " + u))
                .body("member.id", equalTo(vc))
                .body("priority", nullValue());
        auth().get("/api/circuits/circuit-groups/" + group + "/").then().body("circuit_count", equalTo(2));
        auth().get("/api/circuits/circuits/" + circuit + "/")
                .then()
                .body("assignments.id", contains(a1))
                .body("assignments[0].group.id", equalTo(group));
        auth().get("/api/circuits/circuit-group-assignments/?provider_id=" + provider)
                .then()
                .body("results.id", containsInAnyOrder(a1, a2));
        auth().get("/api/circuits/circuit-group-assignments/?virtual_circuit=V-" + u)
                .then()
                .body("results.id", contains(a2));
        auth().get("/api/circuits/circuit-group-assignments/?circuit_id=" + circuit)
                .then()
                .body("results.id", contains(a1));
        post(
                        "/api/circuits/circuit-group-assignments/",
                        Map.of("group", group, "member_type", "dcim.site", "member_id", site))
                .statusCode(400)
                .body("member_type", hasItem("Invalid content type: dcim.site"));
        post(
                        "/api/circuits/circuit-group-assignments/",
                        Map.of("group", group, "member_type", "circuits.circuit", "member_id", circuit))
                .statusCode(400);

        // deleting a member removes its assignments; deleting the interface its termination
        auth().delete("/api/circuits/circuits/" + circuit + "/").then().statusCode(204);
        auth().get("/api/circuits/circuit-group-assignments/" + a1 + "/").then().statusCode(404);
        auth().delete("/api/dcim/interfaces/" + virtual + "/").then().statusCode(204);
        auth().get("/api/circuits/virtual-circuit-terminations/" + term + "/")
                .then()
                .statusCode(404);
        auth().delete("/api/circuits/provider-networks/" + network + "/").then().statusCode(409);
    }

    /**
     * A circuit's {@code assignments} written: the listed assignments become the circuit's (moved
     * from another member), the unlisted ones are deleted, each with its change record; a write
     * without the field leaves them; an id that names no assignment is a 400 changing nothing.
     */
    @Test
    void writingCircuitAssignmentsReplacesThemWithChangeRecords() {
        String u = uniq();
        int provider = provider(u);
        int type = create("/api/circuits/circuit-types/", Map.of("name", "T " + u, "slug", "t-" + u));
        int circuit = create("/api/circuits/circuits/", Map.of("cid", "A-" + u, "provider", provider, "type", type));
        int other = create("/api/circuits/circuits/", Map.of("cid", "B-" + u, "provider", provider, "type", type));
        int g1 = create("/api/circuits/circuit-groups/", Map.of("name", "G1 " + u, "slug", "g1-" + u));
        int g2 = create("/api/circuits/circuit-groups/", Map.of("name", "G2 " + u, "slug", "g2-" + u));
        int own = create(
                "/api/circuits/circuit-group-assignments/",
                Map.of("group", g1, "member_type", "circuits.circuit", "member_id", circuit, "priority", "primary"));
        int moved = create(
                "/api/circuits/circuit-group-assignments/",
                Map.of("group", g2, "member_type", "circuits.circuit", "member_id", other));

        // a PATCH without assignments keeps them
        auth().body(Map.of("description", "d"))
                .patch("/api/circuits/circuits/" + circuit + "/")
                .then()
                .statusCode(200)
                .body("assignments.id", contains(own));
        // an unknown id: 400 under the field, nothing changes
        auth().body(Map.of("assignments", List.of(999999999)))
                .patch("/api/circuits/circuits/" + circuit + "/")
                .then()
                .statusCode(400)
                .body("assignments", contains("Invalid pk \"999999999\" - object does not exist."));
        auth().get("/api/circuits/circuits/" + circuit + "/").then().body("assignments.id", contains(own));

        String request = auth().body(Map.of("assignments", List.of(Map.of("id", moved))))
                .patch("/api/circuits/circuits/" + circuit + "/")
                .then()
                .statusCode(200)
                .body("assignments.id", contains(moved))
                .body("assignments[0].group.id", equalTo(g2))
                .extract()
                .header("X-Request-ID");
        auth().get("/api/circuits/circuit-group-assignments/" + own + "/")
                .then()
                .statusCode(404);
        auth().get("/api/circuits/circuit-group-assignments/" + moved + "/")
                .then()
                .body("member_type", equalTo("circuits.circuit"))
                .body("member_id", equalTo(circuit));
        auth().get("/api/circuits/circuits/" + other + "/").then().body("assignments", hasSize(0));
        auth().get("/api/core/object-changes/?request_id=" + request
                        + "&changed_object_type=circuits.circuitgroupassignment&ordering=time")
                .then()
                .body("results.changed_object_id", containsInAnyOrder(own, moved))
                .body("results.find { it.changed_object_id == " + own + " }.action.value", equalTo("delete"))
                .body("results.find { it.changed_object_id == " + moved + " }.action.value", equalTo("update"))
                .body(
                        "results.find { it.changed_object_id == " + moved + " }.postchange_data.member_id",
                        equalTo(circuit));
        auth().get("/api/core/object-changes/?request_id=" + request + "&changed_object_type=circuits.circuit")
                .then()
                .body("results.changed_object_id", contains(circuit));

        // on create too; an empty list removes them all
        int third = create(
                "/api/circuits/circuits/",
                Map.of("cid", "C-" + u, "provider", provider, "type", type, "assignments", List.of(moved)));
        auth().get("/api/circuits/circuits/" + third + "/").then().body("assignments.id", contains(moved));
        auth().get("/api/circuits/circuits/" + circuit + "/").then().body("assignments", hasSize(0));
        auth().body(Map.of("assignments", List.of()))
                .patch("/api/circuits/circuits/" + third + "/")
                .then()
                .statusCode(200)
                .body("assignments", hasSize(0));
        auth().get("/api/circuits/circuit-group-assignments/" + moved + "/")
                .then()
                .statusCode(404);
    }
}
