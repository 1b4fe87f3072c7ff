#!/usr/bin/env python3
"""Collects the pieces a bench/run left in its work directory into one JSON document, prints the
table of figures with the targets of bench/README.md, and writes the JSON to --out.

Pieces (all optional except config.json): config.json, loadavg-start, loadavg-end, seed.json,
wrk/<test>@<connections>.json, bulk.json, webhooks.json, startup-<service>.json, rss.json,
profile.json.
"""

import argparse
import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import time

# Load tests: name -> (label, target requests/s at 32 connections, target p99 ms at 32 connections).
LOAD_TESTS = {
    "device_list_full": ("GET /api/dcim/devices/?limit=50", 1500, 50),
    "device_list_contexts": ("GET /api/dcim/devices/?limit=50, 7 config contexts", 1500, 50),
    "device_list_brief": ("GET /api/dcim/devices/?limit=50&brief=1", 3000, None),
    "device_list_filtered": ("GET /api/dcim/devices/?site=..&status=active&role=..", None, None),
    "device_detail": ("GET /api/dcim/devices/<random id>/", 4000, None),
    "ip_addresses_parent": ("GET /api/ipam/ip-addresses/?parent=10.0.0.0/8&limit=100", None, None),
    "available_ips_post": ("POST /api/ipam/prefixes/<id>/available-ips/", None, None),
    "site_create": ("POST /api/dcim/sites/ (one site)", 800, None),
    "device_patch": ("PATCH /api/dcim/devices/<random id>/", 600, None),
}
# Load tests with a latency target at one connection (a single write's p50): name -> p50 ms.
SINGLE_CONNECTION_P50 = {"site_create": 3}
TARGET_CONNECTIONS = 32
SERVICES = ("records-api", "webhook-dispatcher")


def read_json(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def read_loadavg(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return [float(v) for v in f.read().split()[:3]]


def machine():
    with open("/proc/meminfo") as f:
        mem_kb = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
    with open("/proc/cpuinfo") as f:
        models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {"nproc": os.cpu_count(), "memory_gib": round(mem_kb / 1024 / 1024, 1),
            "cpu_model": models[0] if models else platform.processor(), "kernel": platform.release(),
            "java": java[0] if java else None, "cpu_probe_s": cpu_probe(), "pg_probe_s": pg_probe()}


def cpu_probe():
    """Seconds of one core for a fixed piece of Python work (median of 3), taken once the run is
    over: machines sold under one CPU model name have differed by 2x in every figure here, and
    this tells such runs apart (with the same Python)."""
    times = []
    for _ in range(3):
        started = time.process_time()
        sum(i * i for i in range(5_000_000))
        times.append(time.process_time() - started)
    return round(sorted(times)[1], 3)


PG_PROBE = ("explain (analyze, timing off, costs off)"
            " select sum(length(md5(g::text))) from generate_series(1, 300000) g")


def pg_probe():
    """Seconds PostgreSQL's executor takes for a fixed query on one core (median of 3, its own
    Execution Time, so no client or network in it), on the server the run used (PG* variables).
    The Python probe has read faster on one machine than on another while every figure of the
    service (Java and PostgreSQL) read lower there: the two probes together tell a
    machine slow for this service's work from one slow for Python alone. None without psql."""
    times = []
    for _ in range(3):
        try:
            out = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-c", PG_PROBE],
                                 capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        found = [line for line in out.splitlines() if line.startswith("Execution Time:")]
        if not found:
            return None
        times.append(float(found[0].split()[2]) / 1000)
    return round(sorted(times)[1], 3)


def check(value, target, at_least):
    if value is None or target is None:
        return "-"
    return "yes" if (value >= target if at_least else value <= target) else "NO"


def row(figure, value, unit, p50=None, p99=None, target="", met="-", sql=None):
    rounded = [None if v is None else round(v, 1) for v in (p50, p99)]
    return {"figure": figure, "value": value, "unit": unit, "p50_ms": rounded[0], "p99_ms": rounded[1],
            "sql_statements": sql, "target": target, "met": met}


def read_statements(work):
    counts = {}
    for path in glob.glob(os.path.join(work, "statements", "*")):
        with open(path) as f:
            value = f.read().strip()
        counts[os.path.basename(path)] = int(value) if value.isdigit() else None
    return counts


def read_phases(work):
    path = os.path.join(work, "phases")
    if not os.path.exists(path):
        return {}
    phases = {}
    with open(path) as f:
        for name, seconds in (line.rstrip("\n").rsplit("\t", 1) for line in f):
            phases[name] = phases.get(name, 0) + int(seconds)
    return phases


def load_rows(wrk_results, statements):
    rows = []
    for name, (label, min_rps, max_p99) in LOAD_TESTS.items():
        for connections in sorted(c for (n, c) in wrk_results if n == name):
            result = wrk_results[(name, connections)]
            rps, lat = result["requests_per_s"], result["latency_ms"]
            target, met = "", "-"
            if connections == 1 and name in SINGLE_CONNECTION_P50:
                target = f"p50 <= {SINGLE_CONNECTION_P50[name]} ms"
                met = check(lat["p50"], SINGLE_CONNECTION_P50[name], False)
            if connections == TARGET_CONNECTIONS and (min_rps or max_p99):
                parts = ([f">= {min_rps} req/s"] if min_rps else []) + ([f"p99 <= {max_p99} ms"] if max_p99 else [])
                target = ", ".join(parts)
                checks = ([check(rps, min_rps, True)] if min_rps else []) + \
                         ([check(lat["p99"], max_p99, False)] if max_p99 else [])
                met = "NO" if "NO" in checks else "yes"
            errors = sum(result["errors"].values())
            figure = f"{label} @{connections}" + (f" ({errors} errors)" if errors else "")
            rows.append(row(figure, round(rps), "req/s", lat["p50"], lat["p99"], target, met, statements.get(name)))
    return rows


def webhook_rows(webhooks):
    rows = []
    for key in sorted((k for k in webhooks if k.startswith("rules_")), key=lambda k: int(k.split("_")[1])):
        rules = key.split("_")[1]
        burst, paced = webhooks[key]["burst"], webhooks[key]["paced"]
        missing = burst["expected_deliveries"] - burst["deliveries"]
        rows.append(row(f"webhooks, {rules} rule(s): burst of {burst['changes']} changes"
                        + (f" ({missing} NOT delivered)" if missing else ""),
                        burst["deliveries_per_s"], "deliveries/s", burst["latency_ms"]["p50"],
                        burst["latency_ms"]["p99"], ">= 2000 deliveries/s",
                        check(burst["deliveries_per_s"], 2000, True)))
        missing = paced["expected_deliveries"] - paced["deliveries"]
        rows.append(row(f"webhooks, {rules} rule(s): paced {paced['rate_changes_per_s']:g} changes/s, latency"
                        + (f" ({missing} NOT delivered)" if missing else ""),
                        paced["deliveries_per_s"], "deliveries/s", paced["latency_ms"]["p50"],
                        paced["latency_ms"]["p99"], "p99 <= 250 ms", check(paced["latency_ms"]["p99"], 250, False)))
    return rows


def read_startup(work, service):
    """The service's start-up readings (startup-<service>.<n>.json, one per restart; a run before
    several restarts left one startup-<service>.json) with their median as the figure."""
    paths = sorted(glob.glob(os.path.join(work, f"startup-{service}.*.json")))
    runs = [read_json(path) for path in paths] or [read_json(os.path.join(work, f"startup-{service}.json"))]
    runs = [run for run in runs if run]
    if not runs:
        return None
    seconds = [run["seconds_to_first_success"] for run in runs]
    return {"seconds_to_first_success": round(statistics.median(seconds), 2), "runs_s": seconds,
            "url": runs[0].get("url")}


def build(work):
    config = read_json(os.path.join(work, "config.json"))
    wrk_results = {}
    for path in glob.glob(os.path.join(work, "wrk", "*@*.json")):
        name, connections = os.path.basename(path)[:-5].split("@")
        wrk_results[(name, int(connections))] = read_json(path)
    seed, bulk, webhooks = (read_json(os.path.join(work, f)) for f in ("seed.json", "bulk.json", "webhooks.json"))
    rss = read_json(os.path.join(work, "rss.json")) or {}
    startup = {s: read_startup(work, s) for s in SERVICES}

    warmups = {os.path.basename(path)[:-len(".warmup.json")]: read_json(path)
               for path in glob.glob(os.path.join(work, "wrk", "*.warmup.json"))}
    statements = read_statements(work)
    rows = load_rows(wrk_results, statements)
    if bulk:
        median = bulk["objects_per_s"]["median"]
        rows.append(row(f"bulk POST of {bulk['objects_per_request']} interfaces (median of {bulk['repetitions']})",
                        round(median), "objects/s", target=">= 10000 objects/s", met=check(median, 10000, True),
                        sql=bulk.get("sql_statements_per_request")))
    if webhooks:
        rows += webhook_rows(webhooks)
    for service in SERVICES:
        if startup.get(service):
            seconds = startup[service]["seconds_to_first_success"]
            rows.append(row(f"start-up of {service} to first successful request (JVM)", seconds, "s",
                            target="<= 2 s", met=check(seconds, 2, False)))
    for service in SERVICES:
        if service in rss:
            mb = round(rss[service] / 1024)
            rows.append(row(f"RSS of {service} after the run", mb, "MB", target="<= 400 MB",
                            met=check(mb, 400, False)))
    return {
        "date": config.get("date") or datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "load_average": {"start": read_loadavg(os.path.join(work, "loadavg-start")),
                         "end": read_loadavg(os.path.join(work, "loadavg-end"))},
        "config": config,
        "dataset": seed,
        "figures": rows,
        "phase_seconds": read_phases(work),
        "details": {
            "load": {f"{n}@{c}": r for (n, c), r in sorted(wrk_results.items())},
            "warmup": dict(sorted(warmups.items())),
            "bulk_create": bulk, "webhooks": webhooks, "startup": startup, "rss_kb": rss,
            "profile": read_json(os.path.join(work, "profile.json")),
        },
    }


def fmt(value):
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


def print_table(report):
    m, load = report["machine"], report["load_average"]
    print(f"\nbench/run {report['date']}  scale {report['config'].get('scale')}  on {m['nproc']} CPUs"
          f" ({m['cpu_model']}), {m['memory_gib']} GiB"
          + (f", CPU probe {m['cpu_probe_s']} s" if m.get("cpu_probe_s") else "")
          + (f", PostgreSQL probe {m['pg_probe_s']} s" if m.get("pg_probe_s") else ""))
    print(f"load average at start {load['start']}, at end {load['end']}")
    phases = report["phase_seconds"]
    if phases:
        print(f"run took {sum(phases.values()) / 60:.0f} min: "
              + ", ".join(f"{name} {seconds} s" for name, seconds in phases.items()))
    print()
    header = ("figure", "result", "unit", "p50 ms", "p99 ms", "SQL", "target", "met")
    table = [header] + [(r["figure"], fmt(r["value"]), r["unit"], fmt(r["p50_ms"]), fmt(r["p99_ms"]),
                         fmt(r["sql_statements"]), r["target"], r["met"]) for r in report["figures"]]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for i, line in enumerate(table):
        print("  ".join(cell.rjust(w) if 0 < col < 6 else cell.ljust(w)
                        for col, (cell, w) in enumerate(zip(line, widths))).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", required=True, help="the run's work directory")
    parser.add_argument("--out", required=True, help="JSON file to write")
    args = parser.parse_args()
    report = build(args.work)
    with open(args.out, "w") as out:
        json.dump(report, out, indent=2)
        out.write("\n")
    print_table(report)
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    sys.exit(main())
