#!/usr/bin/env python3
"""CPU per request: N sequential requests of one kind over one keep-alive connection, and the CPU
time (user + system, /proc) each process used meanwhile, divided by N: records-api by thread
group (the JIT compilers apart), its PostgreSQL backends (every session on the database: the
request's, the outbox relay's, the dispatcher's), webhook-dispatcher. On a machine shared with
other work, wall-clock latency measures the neighbours as much as the service; CPU seconds per
request move far less with the load (a figure per process, not per request: 10 ms clock ticks,
so N of a few hundred).

    cpu_per_request.py --api URL --token T --stack-home DIR --database DB --kind KIND -n 300 [--warm 300]
KIND: site_post, device_patch (ids from --device-ids), or a GET path.
Prints one JSON line (also appended to --out when given).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

from api_client import ApiClient
from jit_cpu import thread_cpu_seconds

TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid):
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def backends(database):
    """pid -> application name of every PostgreSQL session on the database."""
    out = subprocess.run(["psql", "-X", "-A", "-t", "-F", "\t", "-d", "postgres", "-c",
                          f"select pid, application_name from pg_stat_activity where datname = '{database}'"],
                         capture_output=True, text=True, check=True).stdout
    return {int(line.split("\t")[0]): line.split("\t")[1] for line in out.splitlines() if line.strip()}


def group(thread_name):
    return re.sub(r"[-\s#]*\d+$", "", thread_name)


def reading(api_pid, dispatcher_pid, database):
    sessions = backends(database)
    return {"threads": thread_cpu_seconds(api_pid), "dispatcher": process_cpu(dispatcher_pid),
            "backends": {pid: (name, process_cpu(pid)) for pid, name in sessions.items()}}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--stack-home", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--kind", required=True)
    parser.add_argument("-n", type=int, default=300)
    parser.add_argument("--warm", type=int, default=300, help="unmeasured requests first")
    parser.add_argument("--device-ids")
    parser.add_argument("--tag", default=str(int(time.time())), help="makes created names unique")
    parser.add_argument("--out")
    args = parser.parse_args()
    api = ApiClient(args.api, args.token)
    ids = [int(line) for line in open(args.device_ids)] if args.device_ids else []

    def send(i):
        if args.kind == "site_post":
            name = f"cpu-{args.tag}-{i}"
            api.request("POST", "/api/dcim/sites/", {"name": name, "slug": name, "status": "planned"})
        elif args.kind == "device_patch":
            api.request("PATCH", f"/api/dcim/devices/{ids[i % len(ids)]}/", {"description": f"cpu {args.tag} {i}"})
        else:
            api.request("GET", args.kind)

    for i in range(args.warm):
        send(-1 - i)
    time.sleep(1)
    api_pid = int(open(os.path.join(args.stack_home, "run", "records-api.pid")).read())
    dispatcher_file = os.path.join(args.stack_home, "run", "webhook-dispatcher.pid")
    dispatcher_pid = int(open(dispatcher_file).read()) if os.path.exists(dispatcher_file) else -1
    load = open("/proc/loadavg").read().split()[:3]
    before = reading(api_pid, dispatcher_pid, args.database)
    latencies = []
    started = time.perf_counter()
    for i in range(args.n):
        t = time.perf_counter()
        send(i)
        latencies.append((time.perf_counter() - t) * 1000)
    seconds = time.perf_counter() - started
    time.sleep(1.5)  # the relay, the dispatcher and their sessions finish their share
    after = reading(api_pid, dispatcher_pid, args.database)

    per = lambda seconds_: round(seconds_ / args.n * 1000, 3)  # noqa: E731 - ms per request
    threads = {}
    for name, cpu in after["threads"].items():
        threads[group(name)] = threads.get(group(name), 0) + cpu - before["threads"].get(name, 0)
    sessions = {}
    for pid, (name, cpu) in after["backends"].items():
        used = cpu - before["backends"].get(pid, (name, 0))[1]
        key = name or "(unnamed)"
        sessions[key] = sessions.get(key, 0) + used
    jit = sum(v for k, v in threads.items() if "CompilerThre" in k)
    latencies.sort()
    result = {
        "kind": args.kind, "n": args.n, "load_average_before": [float(x) for x in load],
        "p50_ms": round(latencies[args.n // 2], 2), "requests_per_s": round(args.n / seconds, 1),
        "cpu_ms_per_request": {
            "records_api_without_jit": per(sum(threads.values()) - jit), "records_api_jit": per(jit),
            "postgres_sessions": per(sum(sessions.values())),
            "webhook_dispatcher": per(after["dispatcher"] - before["dispatcher"]),
        },
        "records_api_threads": {k: per(v) for k, v in sorted(threads.items(), key=lambda x: -x[1]) if v > 0},
        "postgres_by_application": {k: per(v) for k, v in sorted(sessions.items(), key=lambda x: -x[1]) if v > 0},
    }
    line = json.dumps(result)
    print(line, flush=True)
    if args.out:
        with open(args.out, "a") as out:
            out.write(line + "\n")


if __name__ == "__main__":
    sys.exit(main())
