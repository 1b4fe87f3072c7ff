#!/usr/bin/env python3
"""Bounded load on every list endpoint of the API (bench/list-load; see bench/README.md).

Two steps, each a sub-command:

  seed-contexts  adds what config_context rendering matches on to a data set seeded by seed.py:
                 a region tree over the sites, a tenant, a tag on some devices, a cluster with
                 virtual machines, and config contexts of every kind (global, by region through
                 the tree, by role, by tag, by cluster type, one inactive), so that device and VM
                 lists render real contexts.
  run            finds the list endpoints (GET /api/ -> each application root -> each entry that
                 answers a paged list) and runs wrk with N connections for D seconds on each
                 (`?limit=50`), polling /q/health/ready every 0.5 s meanwhile; prints one row per
                 endpoint (req/s, p99, non-2xx answers, socket errors, readiness) and writes JSON.
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from api_client import ApiClient

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def seed_contexts(args):
    api = ApiClient(args.api, args.token)
    parent = api.post("/api/dcim/regions/", {"name": "Europe", "slug": "europe"})
    child = api.post("/api/dcim/regions/", {"name": "Germany", "slug": "germany", "parent": parent["id"]})
    sites = api.get("/api/dcim/sites/?limit=1000&brief=1")["results"]
    api.patch("/api/dcim/sites/", [{"id": s["id"], "region": child["id"]} for s in sites[: max(1, len(sites) // 2)]])
    tenant = api.post("/api/tenancy/tenants/", {"name": "Bench tenant", "slug": "bench-tenant"})
    tag = api.post("/api/extras/tags/", {"name": "bench-cc", "slug": "bench-cc"})
    devices = api.get("/api/dcim/devices/?limit=200&brief=1")["results"]
    api.patch("/api/dcim/devices/", [{"id": d["id"], "tags": [tag["id"]], "tenant": tenant["id"],
                                      "local_context_data": {"local": True}} for d in devices])
    role = api.get("/api/dcim/device-roles/?limit=1")["results"][0]
    cluster_type = api.post("/api/virtualization/cluster-types/", {"name": "Bench", "slug": "bench"})
    cluster = api.post("/api/virtualization/clusters/", {"name": "bench-cluster", "type": cluster_type["id"]})
    api.post("/api/virtualization/virtual-machines/", [
        {"name": f"vm{i:04d}", "cluster": cluster["id"], "tenant": tenant["id"],
         "tags": [tag["id"]] if i % 2 else []} for i in range(args.vms)])
    contexts = [
        {"name": "global", "weight": 100, "data": {"ntp": ["10.0.0.1", "10.0.0.2"], "dns": {"primary": "10.0.0.53"}}},
        {"name": "europe", "weight": 200, "data": {"dns": {"secondary": "10.1.0.53"}, "tz": "CET"},
         "regions": [parent["id"]]},
        {"name": "role", "weight": 300, "data": {"snmp": {"community": "bench"}}, "roles": [role["id"]]},
        {"name": "tagged", "weight": 400, "data": {"tagged": True}, "tags": ["bench-cc"]},
        {"name": "clusters", "weight": 500, "data": {"hypervisor": "kvm"}, "cluster_types": [cluster_type["id"]]},
        {"name": "tenant", "weight": 600, "data": {"owner": "bench"}, "tenants": [tenant["id"]]},
        {"name": "inactive", "weight": 700, "data": {"never": True}, "is_active": False},
    ]
    api.post("/api/extras/config-contexts/", contexts)
    print(f"    {len(contexts)} config contexts, {args.vms} virtual machines, {len(devices)} tagged devices,"
          f" {len(sites) // 2 or 1} sites in a region tree", flush=True)


def list_endpoints(api):
    """Paths of every endpoint under the application roots that answers GET with a paged list."""
    paths = []
    for app_url in filter(is_api_url, api.get("/api/").values()):
        # /api/status/ is listed among the applications but answers the service status
        for url in filter(is_api_url, api.get(path_of(app_url)).values()):
            path = path_of(url)
            status, body = api.request("GET", path + "?limit=1", expect=range(100, 600))
            if status == 200 and isinstance(body, dict) and "results" in body:
                paths.append(path)
    return sorted(set(paths))


def is_api_url(value):
    return isinstance(value, str) and "://" in value and path_of(value).startswith("/api/")


def path_of(url):
    """The path of an absolute URL (the API writes absolute URLs)."""
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


class ReadinessPoller(threading.Thread):
    """Polls /q/health/ready (management interface) every interval seconds until stopped; counts UP and other answers."""

    def __init__(self, base, interval=0.5):
        super().__init__(daemon=True)
        self.base, self.interval = base, interval
        self.up = self.down = 0
        self.statuses = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            status = "unreachable"
            try:
                with urllib.request.urlopen(self.base + "/q/health/ready", timeout=5) as r:
                    status = json.load(r).get("status", "?")
            except urllib.error.HTTPError as e:
                try:
                    status = json.load(e).get("status", str(e.code))
                except ValueError:
                    status = str(e.code)
            except (OSError, ValueError):
                pass
            if status == "UP":
                self.up += 1
            else:
                self.down += 1
                self.statuses.append(status)
            self.stopping.wait(self.interval)


def run(args):
    api = ApiClient(args.api, args.token)
    endpoints = list_endpoints(api)
    if args.only:
        wanted = [w for w in args.only.split(",") if w]
        endpoints = [e for e in endpoints if any(w in e for w in wanted)]
    print(f"    {len(endpoints)} list endpoints, {args.connections} connections x {args.duration} s each", flush=True)
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, BENCH_TOKEN=args.token, BENCH_WRK_DIR=os.path.join(BENCH, "wrk"))
    rows = []
    header = f"    {'endpoint':<48} {'req/s':>8} {'p99 ms':>8} {'non-2xx':>8} {'socket':>7}  readiness"
    print(header, flush=True)
    for path in endpoints:
        name = path.strip("/").replace("/", "_")
        result_file = os.path.join(args.work, name + ".json")
        env["WRK_RESULT"] = result_file
        with open("/proc/loadavg") as loadavg:
            env["BENCH_LOADAVG"] = " ".join(loadavg.read().split()[:3])
        poller = ReadinessPoller(args.management)
        poller.start()
        subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.duration}s", "--timeout", "10s",
                        "-s", os.path.join(BENCH, "wrk", "get.lua"), f"{args.api}{path}?limit=50"],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        poller.stopping.set()
        poller.join()
        r = json.load(open(result_file))
        e = r["errors"]
        socket_errors = e["connect"] + e["read"] + e["write"] + e["timeout"]
        readiness = f"UP {poller.up}/{poller.up + poller.down}" + (
            f" ({', '.join(sorted(set(poller.statuses)))})" if poller.down else "")
        row = {"endpoint": path, "requests_per_s": r["requests_per_s"], "p99_ms": r["latency_ms"]["p99"],
               "p50_ms": r["latency_ms"]["p50"], "non_2xx": e["status"], "socket_errors": socket_errors,
               "ready_up": poller.up, "ready_polls": poller.up + poller.down, "load_average_before": r.get(
                   "load_average_before")}
        rows.append(row)
        print(f"    {path:<48} {row['requests_per_s']:8.0f} {row['p99_ms']:8.1f} {row['non_2xx']:8d}"
              f" {socket_errors:7d}  {readiness}", flush=True)
    failed = [r for r in rows if r["non_2xx"] or r["socket_errors"] or r["ready_up"] != r["ready_polls"]]
    print(f"\n    {len(rows)} endpoints, {len(failed)} with errors or readiness not UP", flush=True)
    with open(args.out, "w") as out:
        json.dump({"connections": args.connections, "duration_s": args.duration, "endpoints": rows}, out, indent=2)
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["seed-contexts", "run"])
    parser.add_argument("--api", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--management", default="http://127.0.0.1:9000",
                        help="records-api's management interface (/q/health/ready)")
    parser.add_argument("--vms", type=int, default=200)
    parser.add_argument("--duration", type=int, default=30)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--only", help="only endpoints whose path contains one of these (comma-separated)")
    parser.add_argument("--work", help="directory for wrk's per-endpoint results")
    parser.add_argument("--out", help="JSON file to write (run)")
    args = parser.parse_args()
    if args.command == "seed-contexts":
        seed_contexts(args)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
