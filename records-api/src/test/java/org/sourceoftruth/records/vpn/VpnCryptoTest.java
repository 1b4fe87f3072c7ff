package org.sourceoftruth.records.vpn;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.post;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** IKE and IPSec proposals, policies and profiles as NetBox 4.4 serves them. */
@QuarkusTest
class VpnCryptoTest {

    @Test
    void proposalsPoliciesAndProfilesAreCreatedShownAndFiltered() {
        String u = uniq();
        int ike = create(
                "/api/vpn/ike-proposals/",
                Map.of(
                        "name",
                        "ike-" + u,
                        "authentication_method",
                        "preshared-keys",
                        "encryption_algorithm",
                        "aes-256-cbc",
                        "group",
                        14,
                        "sa_lifetime",
                        28800));
        int ike2 = create(
                "/api/vpn/ike-proposals/",
                Map.of(
                        "name",
                        "ike2-" + u,
                        "authentication_method",
                        "certificates",
                        "encryption_algorithm",
                        "aes-128-gcm",
                        "group",
                        19));
        int ikePolicy = create(
                "/api/vpn/ike-policies/",
                Map.of(
                        "name",
                        "ikep-" + u,
                        "version",
                        1,
                        "mode",
                        "main",
                        "proposals",
                        List.of(ike),
                        "preshared_key",
                        "s3cret"));
        int ipsec = create(
                "/api/vpn/ipsec-proposals/",
                Map.of("name", "esp-" + u, "encryption_algorithm", "aes-256-gcm", "sa_lifetime_seconds", 3600));
        int ipsecPolicy = create(
                "/api/vpn/ipsec-policies/", Map.of("name", "ipsp-" + u, "pfs_group", 14, "proposals", List.of(ipsec)));
        int profile = create(
                "/api/vpn/ipsec-profiles/",
                Map.of("name", "prof-" + u, "mode", "esp", "ike_policy", ikePolicy, "ipsec_policy", ipsecPolicy));

        auth().get("/api/vpn/ike-proposals/" + ike + "/")
                .then()
                .statusCode(200)
                .body("group.value", equalTo(14))
                .body("group.label", equalTo("Group 14"))
                .body("encryption_algorithm.label", equalTo("256-bit AES (CBC)"))
                .body("authentication_algorithm", equalTo(null))
                .body("sa_lifetime", equalTo(28800));
        auth().get("/api/vpn/ike-policies/" + ikePolicy + "/")
                .then()
                .statusCode(200)
                .body("version.value", equalTo(1))
                .body("version.label", equalTo("IKEv1"))
                .body("mode.value", equalTo("main"))
                .body("proposals.id", contains(ike))
                .body("proposals[0].keySet()", containsInAnyOrder("id", "url", "display", "name", "description"));
        auth().get("/api/vpn/ipsec-policies/" + ipsecPolicy + "/")
                .then()
                .body("pfs_group.value", equalTo(14))
                .body("proposals.name", contains("esp-" + u));
        auth().get("/api/vpn/ipsec-profiles/" + profile + "/")
                .then()
                .body("mode.label", equalTo("ESP"))
                .body("ike_policy.id", equalTo(ikePolicy))
                .body("ipsec_policy.name", equalTo("ipsp-" + u));

        auth().get("/api/vpn/ike-proposals/?ike_policy_id=" + ikePolicy).then().body("results.id", contains(ike));
        auth().get("/api/vpn/ike-proposals/?ike_policy=ikep-" + u).then().body("results.id", contains(ike));
        auth().get("/api/vpn/ike-proposals/?group=19&name__isw=ike").then().body("results.id", hasItem(ike2));
        auth().get("/api/vpn/ike-policies/?ike_proposal_id=" + ike).then().body("results.id", contains(ikePolicy));
        auth().get("/api/vpn/ike-policies/?ike_proposal_id=" + ike2).then().body("count", equalTo(0));
        auth().get("/api/vpn/ipsec-proposals/?ipsec_policy=ipsp-" + u).then().body("results.id", contains(ipsec));
        auth().get("/api/vpn/ipsec-policies/?ipsec_proposal_id=" + ipsec)
                .then()
                .body("results.id", contains(ipsecPolicy));
        auth().get("/api/vpn/ipsec-profiles/?ike_policy=ikep-" + u).then().body("results.id", contains(profile));
        auth().get("/api/vpn/ipsec-profiles/?ipsec_policy_id=" + ipsecPolicy)
                .then()
                .body("results.id", contains(profile));
        auth().get("/api/vpn/ike-proposals/?ike_policy_id=999999999")
                .then()
                .statusCode(400)
                .body("$", hasKey("ike_policy_id"));

        // a policy in use by a profile is protected
        auth().delete("/api/vpn/ike-policies/" + ikePolicy + "/").then().statusCode(409);
    }

    @Test
    void netBoxsCryptoRulesAreErrors() {
        String u = uniq();
        post("/api/vpn/ike-policies/", Map.of("name", "v1-" + u, "version", 1))
                .statusCode(400)
                .body("__all__", contains("Mode is required for selected IKE version"));
        post("/api/vpn/ike-policies/", Map.of("name", "v2-" + u, "mode", "aggressive"))
                .statusCode(400)
                .body("__all__", contains("Mode cannot be used for selected IKE version"));
        post("/api/vpn/ipsec-proposals/", Map.of("name", "none-" + u))
                .statusCode(400)
                .body("__all__", contains("Encryption and/or authentication algorithm must be defined"));
        post(
                        "/api/vpn/ike-proposals/",
                        Map.of(
                                "name",
                                "g-" + u,
                                "authentication_method",
                                "certificates",
                                "encryption_algorithm",
                                "des-cbc",
                                "group",
                                3))
                .statusCode(400)
                .body("$", hasKey("group"));
        post("/api/vpn/ipsec-profiles/", Map.of("name", "p-" + u, "mode", "esp"))
                .statusCode(400)
                .body("$", hasKey("ike_policy"))
                .body("$", hasKey("ipsec_policy"));
        auth().get("/api/vpn/ike-policies/?name=v1-" + u).then().body("count", equalTo(0));
    }
}
