package org.sourceoftruth.records.ipam;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.sourceoftruth.records.Api.auth;
import static org.sourceoftruth.records.Api.create;
import static org.sourceoftruth.records.Api.uniq;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Prefix and address filters over nested prefixes in the global table and two VRFs,
 * depth/children, and network (not string) ordering for IPv4 and IPv6.
 */
@QuarkusTest
class IpamFiltersTest {

    private static List<String> prefixes(String query) {
        return auth().get("/api/ipam/prefixes/?limit=100&" + query)
                .then()
                .statusCode(200)
                .extract()
                .path("results.prefix");
    }

    private static List<String> addresses(String query) {
        return auth().get("/api/ipam/ip-addresses/?limit=100&" + query)
                .then()
                .statusCode(200)
                .extract()
                .path("results.address");
    }

    @Test
    void withinAndContainsOnNestedPrefixesInTwoVrfs() {
        String b = Ipam.v4Block();
        String u = uniq();
        int a = Ipam.vrf("A-" + u, "64512:" + Math.abs(u.hashCode() % 100000), true);
        int bv = Ipam.vrf("B-" + u, "64513:" + Math.abs(u.hashCode() % 100000), true);
        String rdA = auth().get("/api/ipam/vrfs/" + a + "/").then().extract().path("rd");
        for (Object vrf : new Object[] {null, a}) {
            for (String p : List.of(b + ".0/24", b + ".0/25", b + ".0/26", b + ".128/25")) {
                Ipam.prefix(p, vrf);
            }
        }
        Ipam.prefix(b + ".0/25", bv);
        String block = "within_include=" + b + ".0/24";
        assertThat(prefixes("within=" + b + ".0/24"), org.hamcrest.Matchers.hasSize(7));
        assertThat(prefixes(block), org.hamcrest.Matchers.hasSize(9));
        assertThat(prefixes("within=" + b + ".0/24&vrf_id=" + a), contains(b + ".0/25", b + ".0/26", b + ".128/25"));
        assertThat(prefixes(block + "&vrf_id=null"), contains(b + ".0/24", b + ".0/25", b + ".0/26", b + ".128/25"));
        assertThat(prefixes(block + "&vrf=" + rdA), org.hamcrest.Matchers.hasSize(4));
        assertThat(prefixes(block + "&present_in_vrf_id=" + bv), contains(b + ".0/25"));
        // a bare address: prefixes containing it; a prefix: prefixes containing or equal to it
        assertThat(prefixes("contains=" + b + ".5&vrf_id=" + a), contains(b + ".0/24", b + ".0/25", b + ".0/26"));
        assertThat(prefixes("contains=" + b + ".0/25&vrf_id=" + a), contains(b + ".0/24", b + ".0/25"));
        assertThat(
                prefixes("contains=" + b + ".200&" + block),
                contains(b + ".0/24", b + ".128/25", b + ".0/24", b + ".128/25"));
        // the filter value's host bits are ignored, as NetBox's .cidr does
        assertThat(prefixes("within=" + b + ".77/24&vrf_id=" + bv), contains(b + ".0/25"));
        assertThat(prefixes(block + "&mask_length=25"), org.hamcrest.Matchers.hasSize(5));
        assertThat(prefixes(block + "&mask_length__gte=26"), org.hamcrest.Matchers.hasSize(2));
        assertThat(prefixes(block + "&mask_length__lte=24"), org.hamcrest.Matchers.hasSize(2));
        assertThat(prefixes(block + "&mask_length=24&mask_length=26"), org.hamcrest.Matchers.hasSize(4));
        assertThat(prefixes(block + "&family=6"), org.hamcrest.Matchers.hasSize(0));
        assertThat(prefixes(block + "&family=4"), org.hamcrest.Matchers.hasSize(9));
        // depth and children are counted within each VRF
        List<Map<String, Object>> global = auth().get("/api/ipam/prefixes/?vrf_id=null&" + block)
                .then()
                .extract()
                .path("results");
        assertThat(global.stream().map(p -> p.get("_depth")).toList(), contains(0, 1, 2, 1));
        assertThat(global.stream().map(p -> p.get("children")).toList(), contains(3, 1, 0, 0));
        auth().get("/api/ipam/prefixes/?vrf_id=" + bv + "&" + block)
                .then()
                .body("results[0]._depth", equalTo(0))
                .body("results[0].children", equalTo(0));
        assertThat(prefixes(block + "&depth=2"), contains(b + ".0/26", b + ".0/26"));
        assertThat(prefixes(block + "&children__gte=1"), contains(b + ".0/24", b + ".0/25", b + ".0/24", b + ".0/25"));
        // default order: global table first, then by VRF, each in network order
        List<Map<String, Object>> vrfs = auth().get("/api/ipam/prefixes/?limit=100&" + block)
                .then()
                .extract()
                .path("results.vrf");
        List<Object> vrfIds =
                vrfs.stream().map(v -> v == null ? null : v.get("id")).toList();
        assertThat(vrfIds, contains(null, null, null, null, a, a, a, a, bv));
    }

    @Test
    void addressFiltersAndAddressOrdering() {
        String b = Ipam.v4Block();
        for (String ip : List.of(b + ".10/24", b + ".9/24", b + ".100/24", b + ".200/25", b + ".2/32")) {
            Ipam.ip(ip);
        }
        create(
                "/api/ipam/ip-addresses/",
                Map.of("address", b + ".50/24", "dns_name", "web.example.com", "status", "reserved"));
        String parent = "parent=" + b + ".0/24";
        // numeric, not string, order
        assertThat(
                addresses(parent),
                contains(b + ".2/32", b + ".9/24", b + ".10/24", b + ".50/24", b + ".100/24", b + ".200/25"));
        assertThat(
                addresses("parent=" + b + ".0/25"),
                contains(b + ".2/32", b + ".9/24", b + ".10/24", b + ".50/24", b + ".100/24"));
        // address: a bare address matches the host whatever its mask; with a mask, exactly; repeatable
        assertThat(addresses("address=" + b + ".200"), contains(b + ".200/25"));
        assertThat(addresses("address=" + b + ".200/24"), org.hamcrest.Matchers.hasSize(0));
        assertThat(addresses("address=" + b + ".9&address=" + b + ".10/24"), contains(b + ".9/24", b + ".10/24"));
        assertThat(addresses(parent + "&mask_length=32"), contains(b + ".2/32"));
        assertThat(addresses(parent + "&mask_length__gte=25"), contains(b + ".2/32", b + ".200/25"));
        assertThat(addresses(parent + "&dns_name__ic=EXAMPLE"), contains(b + ".50/24"));
        assertThat(addresses(parent + "&dns_name=web.example.com"), contains(b + ".50/24"));
        assertThat(addresses(parent + "&status=reserved"), contains(b + ".50/24"));
        assertThat(addresses(parent + "&status__n=reserved"), org.hamcrest.Matchers.hasSize(5));
        assertThat(addresses(parent + "&family=4"), org.hamcrest.Matchers.hasSize(6));
        assertThat(addresses(parent + "&q=" + b + ".10"), containsInAnyOrder(b + ".10/24", b + ".100/24"));
        assertThat(addresses(parent + "&assigned_to_interface=false"), org.hamcrest.Matchers.hasSize(6));
        assertThat(addresses(parent + "&vrf_id=null"), org.hamcrest.Matchers.hasSize(6));
    }

    @Test
    void ipv6AddressesAndPrefixesSortInNetworkOrder() {
        String v6 = Ipam.v6Block();
        for (String ip : List.of("::10/64", "::9/64", "::a/64", "::1:0/64", "::2/64", "::ff/128")) {
            Ipam.ip(v6 + ip);
        }
        assertThat(
                addresses("parent=" + v6 + "::/48"),
                contains(
                        v6 + "::2/64", v6 + "::9/64", v6 + "::a/64", v6 + "::10/64", v6 + "::ff/128", v6 + "::1:0/64"));
        for (String p : List.of(":10::/64", ":9::/64", ":a::/64", "::/56", ":100::/64")) {
            Ipam.prefix(v6 + p, null);
        }
        assertThat(
                prefixes("within_include=" + v6 + "::/48"),
                contains(v6 + "::/56", v6 + ":9::/64", v6 + ":a::/64", v6 + ":10::/64", v6 + ":100::/64"));
        assertThat(prefixes("contains=" + v6 + ":a::1"), contains(v6 + "::/56", v6 + ":a::/64"));
        assertThat(prefixes("within=" + v6 + "::/56"), contains(v6 + ":9::/64", v6 + ":a::/64", v6 + ":10::/64"));
        assertThat(
                prefixes("within_include=" + v6 + "::/48&family=6&mask_length=64"), org.hamcrest.Matchers.hasSize(4));
        auth().get("/api/ipam/prefixes/?within_include=" + v6 + "::/48")
                .then()
                .body("results[0].children", equalTo(3))
                .body("results[1]._depth", equalTo(1));
    }

    @Test
    void prefixFieldFilters() {
        String u = uniq();
        String b = Ipam.v4Block();
        int tenant = create("/api/tenancy/tenants/", Map.of("name", "pt-" + u, "slug", "pt-" + u));
        int vlan = create("/api/ipam/vlans/", Map.of("vid", 300, "name", "pv-" + u));
        create(
                "/api/ipam/prefixes/",
                Map.of("prefix", b + ".0/25", "is_pool", true, "tenant", tenant, "vlan", vlan, "status", "reserved"));
        Ipam.prefix(b + ".128/25", null);
        String block = "within_include=" + b + ".0/24&";
        assertThat(prefixes(block + "is_pool=true"), contains(b + ".0/25"));
        assertThat(prefixes(block + "is_pool=false"), contains(b + ".128/25"));
        assertThat(prefixes(block + "tenant=pt-" + u), contains(b + ".0/25"));
        assertThat(prefixes(block + "tenant_id=" + tenant), contains(b + ".0/25"));
        assertThat(prefixes(block + "vlan_id=" + vlan), contains(b + ".0/25"));
        assertThat(prefixes(block + "vlan_vid=300"), contains(b + ".0/25"));
        assertThat(prefixes(block + "status=reserved"), contains(b + ".0/25"));
        assertThat(prefixes(block + "status=active"), contains(b + ".128/25"));
        assertThat(prefixes(block + "prefix=" + b + ".128/25"), contains(b + ".128/25"));
        assertThat(prefixes(block + "q=" + b + ".128"), contains(b + ".128/25"));
        auth().get("/api/ipam/vlans/" + vlan + "/").then().body("prefix_count", equalTo(1));
    }

    @Test
    void scopeFiltersResolveSitesThroughLocationsAndRegions() {
        String u = uniq();
        String b = Ipam.v4Block();
        int region = create("/api/dcim/regions/", Map.of("name", "r-" + u, "slug", "r-" + u));
        int site = create("/api/dcim/sites/", Map.of("name", "s-" + u, "slug", "s-" + u, "region", region));
        int location = create("/api/dcim/locations/", Map.of("name", "l-" + u, "slug", "l-" + u, "site", site));
        create("/api/ipam/prefixes/", Map.of("prefix", b + ".0/25", "scope_type", "dcim.site", "scope_id", site));
        create(
                "/api/ipam/prefixes/",
                Map.of("prefix", b + ".128/25", "scope_type", "dcim.location", "scope_id", location));
        create("/api/ipam/prefixes/", Map.of("prefix", b + ".0/24", "scope_type", "dcim.region", "scope_id", region));
        String block = "within_include=" + b + ".0/24&";
        assertThat(prefixes(block + "site_id=" + site), contains(b + ".0/25", b + ".128/25"));
        assertThat(prefixes(block + "site=s-" + u), contains(b + ".0/25", b + ".128/25"));
        assertThat(prefixes(block + "location_id=" + location), contains(b + ".128/25"));
        assertThat(prefixes(block + "region=r-" + u), contains(b + ".0/24", b + ".0/25", b + ".128/25"));
        assertThat(prefixes(block + "scope_type=dcim.site"), contains(b + ".0/25"));
        auth().get("/api/ipam/prefixes/?" + block + "site_id=" + site)
                .then()
                .body("results[0].scope.slug", equalTo("s-" + u))
                .body("results[1].scope.slug", equalTo("l-" + u));
    }
}
