#!/usr/bin/env python3
"""The lived-in database of `bench/run --lived-in`: churn on top of the seeded scale-1 data set, as
a stack that has served client suites for a few hours has it, then the report of its table.

`build` (after lib/seed.py, with the dispatcher running):
  - tags and custom fields (text, integer, boolean) on sites, devices, prefixes and IP addresses;
  - sites up to --sites (1,000 at scale 1), each with tags and custom field values;
  - bulk PATCHes (lists of 1,000) that put tags and custom field values on most devices,
    prefixes and IP addresses, then change descriptions round after round until the churn has
    written --changes change records (100,000);
  - creates and deletes (--deleted IP addresses and a tenth as many sites), which leave dead
    tuples behind on a server without autovacuum;
  - --rules event rules (sites, devices, prefixes; create, update, delete) with a webhook each to
    the receiver on --receiver-port, so that the running dispatcher delivers the measured
    writes' events.
  No vacuum follows: the tables stay as the churn left them. Writes a JSON summary (counts, the
  change log's size, dead tuples per table) and the ids the load scripts use.

`report`: the table of the run's wrk results next to NetBox 4.6.8's figures, with its targets, as
JSON and text.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import time

from api_client import ApiClient

CHUNK = 1000
TAGS = [f"lived-{i}" for i in range(8)]
CUSTOM_FIELD_TYPES = {"owner_team": "text", "rack_units": "integer", "monitored": "boolean"}
CUSTOM_FIELD_OBJECT_TYPES = ["dcim.site", "dcim.device", "ipam.prefix", "ipam.ipaddress"]
RULE_OBJECT_TYPES = [["dcim.site"], ["dcim.device"], ["ipam.prefix", "ipam.ipaddress"]]
EVENT_TYPES = ["object_created", "object_updated", "object_deleted"]

# name -> (label, NetBox 4.6.8's req/s for the request, target = NetBox x 300 for reads, x 50 for writes)
TABLE = {
    "sites_list": ("GET /api/dcim/sites/?limit=50", 11.4, 3400),
    "site_detail": ("GET /api/dcim/sites/<id>/", 19.2, 5800),
    "devices_list": ("GET /api/dcim/devices/?limit=50", 6.4, 1900),
    "devices_brief": ("GET /api/dcim/devices/?limit=50&brief=1", 12.1, 3600),
    "devices_by_site": ("GET /api/dcim/devices/?site=<slug>&limit=50", 6.9, 2100),
    "prefixes_list": ("GET /api/ipam/prefixes/?limit=50", 12.7, 3800),
    "ip_addresses_list": ("GET /api/ipam/ip-addresses/?limit=50", 9.5, 2850),
    "site_post": ("POST /api/dcim/sites/ (one site, sequential)", 11.0, 550),
    "device_patch": ("PATCH /api/dcim/devices/<id>/ (sequential)", 3.4, 170),
}
WRITE_P50_TARGET_MS = 1.5


def psql(sql):
    return subprocess.run(["psql", "-X", "-A", "-t", "-q", "-c", sql], check=True, capture_output=True,
                          text=True).stdout.strip()


def change_count():
    return int(psql("select count(*) from core_objectchange"))


def all_ids(api, path):
    ids, offset = [], 0
    while True:
        page = api.get(f"{path}?brief=1&limit=1000&offset={offset}&ordering=id")
        ids += [o["id"] for o in page["results"]]
        offset += 1000
        if not page.get("next"):
            return ids


def chunks(items):
    return [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]


def custom_values(i):
    return {"owner_team": f"team-{i % 17}", "rack_units": i % 48, "monitored": i % 3 != 0}


def tags_of(i):
    return [{"name": TAGS[i % len(TAGS)]}, {"name": TAGS[(i * 7 + 3) % len(TAGS)]}]


class Churn:
    def __init__(self, api):
        self.api = api
        self.start = change_count()
        self.timings = {}

    def made(self):
        return change_count() - self.start

    def bulk(self, label, method, path, items):
        started = time.monotonic()
        out = []
        for chunk in chunks(items):
            result = self.api.request(method, path, chunk)[1]
            if isinstance(result, list):
                out += result
        seconds = time.monotonic() - started
        entry = self.timings.setdefault(label, {"objects": 0, "seconds": 0.0})
        entry["objects"] += len(items)
        entry["seconds"] = round(entry["seconds"] + seconds, 1)
        print(f"    {label:<28} {len(items):>6} objects in {seconds:6.1f} s", flush=True)
        return out


def build(args):
    api = ApiClient(args.api, args.token)
    churn = Churn(api)
    for name in TAGS:
        api.post("/api/extras/tags/", {"name": name, "slug": name, "color": "4caf50"})
    for name, kind in CUSTOM_FIELD_TYPES.items():
        api.post("/api/extras/custom-fields/", {"name": name, "type": kind, "object_types": CUSTOM_FIELD_OBJECT_TYPES})

    sites = all_ids(api, "/api/dcim/sites/")
    new_sites = [{"name": f"Lived {i:04d}", "slug": f"lived-{i:04d}", "status": "active", "tags": tags_of(i),
                  "custom_fields": custom_values(i)} for i in range(max(0, args.sites - len(sites)))]
    sites += [s["id"] for s in churn.bulk("sites created", "POST", "/api/dcim/sites/", new_sites)]
    devices = all_ids(api, "/api/dcim/devices/")
    prefixes = all_ids(api, "/api/ipam/prefixes/")
    addresses = all_ids(api, "/api/ipam/ip-addresses/")
    # most objects (nine in ten) carry tags and custom field values
    targets = [("/api/dcim/sites/", sites), ("/api/dcim/devices/", devices), ("/api/ipam/prefixes/", prefixes),
               ("/api/ipam/ip-addresses/", addresses)]
    for path, ids in targets:
        churn.bulk(f"tagged {path.split('/')[3]}", "PATCH", path,
                   [{"id": id_, "tags": tags_of(i), "custom_fields": custom_values(i)}
                    for i, id_ in enumerate(ids) if i % 10])

    # creates and deletes: dead tuples in the object tables, their tag and change-log rows stay
    doomed = churn.bulk("addresses created", "POST", "/api/ipam/ip-addresses/", [
        {"address": f"10.240.{k // 250}.{1 + k % 250}/16", "status": "active", "tags": tags_of(k)}
        for k in range(args.deleted)])
    churn.bulk("addresses deleted", "DELETE", "/api/ipam/ip-addresses/", [{"id": o["id"]} for o in doomed])
    doomed = churn.bulk("sites created", "POST", "/api/dcim/sites/", [
        {"name": f"Gone {k:04d}", "slug": f"gone-{k:04d}", "tags": tags_of(k)} for k in range(args.deleted // 10)])
    churn.bulk("sites deleted", "DELETE", "/api/dcim/sites/", [{"id": o["id"]} for o in doomed])

    round_ = 0
    while churn.made() < args.changes:
        round_ += 1
        for path, ids in targets:
            left = args.changes - churn.made()
            if left <= 0:
                break
            churn.bulk(f"descriptions {path.split('/')[3]}", "PATCH", path,
                       [{"id": id_, "description": f"churn round {round_}"} for id_ in ids[:left]])

    webhooks = []
    for i, object_types in enumerate(RULE_OBJECT_TYPES[:args.rules]):
        hook = api.post("/api/extras/webhooks/", {"name": f"lived-webhook-{i}",
                                                  "payload_url": f"http://127.0.0.1:{args.receiver_port}/hook/{i}"})
        webhooks.append(hook["id"])
        api.post("/api/extras/event-rules/", {
            "name": f"lived-rule-{i}", "object_types": object_types, "event_types": EVENT_TYPES,
            "action_object_type": "extras.webhook", "action_object_id": hook["id"]})

    with open(args.site_ids, "w") as out:
        out.write("\n".join(str(i) for i in sites) + "\n")
    dead = psql("select coalesce(json_object_agg(relname, json_build_object('live', n_live_tup, 'dead', n_dead_tup)),"
                " '{}') from (select * from pg_stat_user_tables where n_dead_tup > 1000"
                " order by n_dead_tup desc limit 12) t")
    summary = {
        "churn_change_records": churn.made(),
        "change_records": change_count(),
        "change_log_bytes": int(psql("select pg_total_relation_size('core_objectchange')")),
        "sites": len(sites), "devices": len(devices), "prefixes": len(prefixes), "ip_addresses": len(addresses),
        "tags": len(TAGS), "custom_fields": len(CUSTOM_FIELD_TYPES), "event_rules": len(webhooks),
        "deleted_objects": args.deleted + args.deleted // 10,
        "bulk": churn.timings,
        "tables_with_dead_tuples": json.loads(dead),
    }
    with open(args.out, "w") as out:
        json.dump(summary, out, indent=2)
    print(f"    {summary['churn_change_records']} change records of churn, {summary['change_records']} in all "
          f"({summary['change_log_bytes'] / 2**20:.0f} MiB)", flush=True)


def report(args):
    sys.path.insert(0, os.path.dirname(__file__))
    from report import machine, read_json, read_loadavg

    rows, figures = [], {}
    for name, (label, netbox, target) in TABLE.items():
        found = sorted(glob.glob(os.path.join(args.work, "wrk", f"{name}@*.json")))
        if not found:
            continue
        result = read_json(found[0])
        result["connections"] = int(found[0].rsplit("@", 1)[1].split(".")[0])
        write = name in ("site_post", "device_patch")
        rps, p50 = result["requests_per_s"], result["latency_ms"]["p50"]
        met = rps >= target and (not write or p50 <= WRITE_P50_TARGET_MS)
        statements_file = os.path.join(args.work, "statements", name)
        statements = open(statements_file).read().strip() if os.path.exists(statements_file) else "-"
        errors = sum(result["errors"].values())
        figures[name] = {"label": label, "requests_per_s": rps, "latency_ms": result["latency_ms"],
                         "connections": result.get("connections"), "sql_statements": statements,
                         "errors": errors, "netbox_4_6_8": netbox, "ratio": round(rps / netbox),
                         "target": target, "met": met, "load_average_before": result.get("load_average_before"),
                         "jit_cpu_s": result.get("jit_cpu_s")}
        rows.append(f"| {label} | {netbox} | {rps:,.0f} (p50 {p50:.2f} ms) | {rps / netbox:,.0f}x | {statements} "
                    f"| >= {target:,}{' and p50 <= 1.5 ms' if write else ''} | {'yes' if met else 'no'}"
                    f"{f' ({errors} errors)' if errors else ''} |")
    cpu_file = os.path.join(args.work, "cpu.jsonl")
    cpu = [json.loads(line) for line in open(cpu_file)] if os.path.exists(cpu_file) else []
    document = {
        "mode": "lived-in",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(),
        "load_average": {"start": read_loadavg(os.path.join(args.work, "loadavg-start")),
                         "end": read_loadavg(os.path.join(args.work, "loadavg-end"))},
        "config": read_json(os.path.join(args.work, "config.json")),
        "dataset": read_json(os.path.join(args.work, "seed.json")),
        "lived_in": read_json(os.path.join(args.work, "lived-in.json")),
        "figures": figures,
        "cpu_per_request": cpu,
    }
    with open(args.out, "w") as out:
        json.dump(document, out, indent=2)
    print("| endpoint | NetBox 4.6.8 | this service | ratio | SQL | target | met |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    for c in cpu:
        ms = c["cpu_ms_per_request"]
        print(f"CPU per request, {c['kind']}: records-api {ms['records_api_without_jit']} ms (+ JIT {ms['records_api_jit']}),"
              f" PostgreSQL {ms['postgres_sessions']} ms {c['postgres_by_application']}, dispatcher {ms['webhook_dispatcher']} ms;"
              f" p50 {c['p50_ms']} ms at load {c['load_average_before'][0]}")
    print(f"load average: start {document['load_average']['start']}, end {document['load_average']['end']}")
    print(f"result: {args.out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--api", required=True)
    b.add_argument("--token", required=True)
    b.add_argument("--receiver-port", type=int, required=True)
    b.add_argument("--sites", type=int, default=1000)
    b.add_argument("--changes", type=int, default=100_000)
    b.add_argument("--deleted", type=int, default=10_000)
    b.add_argument("--rules", type=int, default=3)
    b.add_argument("--site-ids", required=True)
    b.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("--work", required=True)
    r.add_argument("--out", required=True)
    args = parser.parse_args()
    return build(args) if args.command == "build" else report(args)


if __name__ == "__main__":
    sys.exit(main())
