#!/usr/bin/env python3
"""A nested GraphQL query over 50 devices against a running records-api: seeds (once, by name)
50 devices at one site, each with two interfaces with an IP address in one VRF, then sends
`device_list { name site { name } interfaces { name ip_addresses { address vrf { name } } } }`
--runs times back to back (one client) and, for comparison, the same data through REST (the
device page, then the interfaces and the IP addresses of those devices: three requests). Prints
the median, p90 and max latency of each, and the statements of one GraphQL request where the
service reports them (X-SQL-Statements, tests and dev only). Bounded: --runs requests of each,
30 s timeout each.

  python3 graphql_nested.py --api http://127.0.0.1:18570 --token <superuser token> [--runs 50]
"""
import argparse
import json
import statistics
import time
import urllib.error
import urllib.request

DEVICES = 50


def call(api, token, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(api + path, data=data, method=method,
                                 headers={"Authorization": "Token " + token, "Accept": "application/json"})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"null"), r.headers


def seed(api, token):
    """The seeded devices' site id (creating the data unless a run before did)."""
    found, _ = call(api, token, "GET", "/api/dcim/sites/?slug=bench-gql")
    if found["count"]:
        return found["results"][0]["id"]
    site, _ = call(api, token, "POST", "/api/dcim/sites/", {"name": "bench-gql", "slug": "bench-gql"})
    mfr, _ = call(api, token, "POST", "/api/dcim/manufacturers/", {"name": "bench-gql", "slug": "bench-gql"})
    dtype, _ = call(api, token, "POST", "/api/dcim/device-types/",
                    {"manufacturer": mfr["id"], "model": "bench-gql", "slug": "bench-gql"})
    role, _ = call(api, token, "POST", "/api/dcim/device-roles/", {"name": "bench-gql", "slug": "bench-gql"})
    vrf, _ = call(api, token, "POST", "/api/ipam/vrfs/", {"name": "bench-gql"})
    devices, _ = call(api, token, "POST", "/api/dcim/devices/", [
        {"name": f"bench-gql-{n:02d}", "site": site["id"], "device_type": dtype["id"], "role": role["id"]}
        for n in range(DEVICES)])
    interfaces, _ = call(api, token, "POST", "/api/dcim/interfaces/", [
        {"device": d["id"], "name": f"eth{i}", "type": "1000base-t"} for d in devices for i in range(2)])
    call(api, token, "POST", "/api/ipam/ip-addresses/", [
        {"address": f"10.77.{k // 250}.{k % 250 + 1}/16", "vrf": vrf["id"],
         "assigned_object_type": "dcim.interface", "assigned_object_id": iface["id"]}
        for k, iface in enumerate(interfaces)])
    return site["id"]


def timed(fn, runs):
    out = []
    for _ in range(runs):
        t0 = time.monotonic()
        fn()
        out.append((time.monotonic() - t0) * 1000)
    return out


def summary(ms):
    ms = sorted(ms)
    return (f"median {statistics.median(ms):.1f} ms, p90 {ms[int(len(ms) * 0.9) - 1]:.1f} ms,"
            f" max {ms[-1]:.1f} ms ({len(ms)} runs)")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--api", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--runs", type=int, default=50)
    args = p.parse_args()
    site = seed(args.api, args.token)
    query = ("{ device_list(filters: {site_id: %d}, pagination: {offset: 0, limit: %d}) { name site { name }"
             " interfaces { name ip_addresses { address vrf { name } } } } }") % (site, DEVICES)

    def graphql():
        result, headers = call(args.api, args.token, "POST", "/graphql/", {"query": query})
        assert "errors" not in result, result["errors"]
        devices = result["data"]["device_list"]
        assert len(devices) == DEVICES and devices[0]["interfaces"][0]["ip_addresses"][0]["vrf"], devices[0]
        return headers

    def rest():
        page, _ = call(args.api, args.token, "GET", f"/api/dcim/devices/?site_id={site}&limit={DEVICES}")
        ids = "&".join(f"device_id={d['id']}" for d in page["results"])
        interfaces, _ = call(args.api, args.token, "GET", f"/api/dcim/interfaces/?{ids}&limit=1000")
        ifaces = "&".join(f"interface_id={i['id']}" for i in interfaces["results"])
        addresses, _ = call(args.api, args.token, "GET", f"/api/ipam/ip-addresses/?{ifaces}&limit=1000")
        assert len(addresses["results"]) == 2 * DEVICES, len(addresses["results"])

    headers = graphql()  # warms the schema, the JIT a little and the caches
    rest()
    statements = headers.get("X-SQL-Statements")
    print(f"GraphQL, {DEVICES} devices nested 4 deep: {summary(timed(graphql, args.runs))}"
          + (f"; {statements} SQL statements" if statements else ""))
    print(f"REST, the same data in 3 requests:   {summary(timed(rest, args.runs))}")


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{e.code} {e.read()[:500]!r}")
