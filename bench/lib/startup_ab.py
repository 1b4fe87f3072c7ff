#!/usr/bin/env python3
"""Start-up and memory of two builds of records-api, A and B, started in turns (A, B, A, B, ...)
on one migrated database, so that the load of a shared machine falls on both alike.

Per start: wall seconds from the process's start to its first 200 on an authenticated API
request (GET /api/dcim/sites/?limit=1, polled every 20 ms), the CPU seconds the process had used
by then (user + system, from /proc: less sensitive to other processes than the wall time), its
RSS then, and its RSS after a fixed load (--requests GETs of a site list page, 4 at a time).
Prints the medians per build, with the load average before each start. The JVM options are the
stack's (deploy/local/stack: -Xmx160m, the serial collector).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from startup_probe import process_age_seconds  # noqa: E402

TOKEN = "0123456789abcdef0123456789abcdef5a7e0b0b"
JAVA_OPTS = ["-Xmx160m", "-XX:+UseSerialGC", "-XX:TrimNativeHeapInterval=5000"]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def get(url, token=TOKEN):
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}", "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        response.read()
        return response.status


def start(args, app, log):
    env = {**os.environ, "DB_HOST": "127.0.0.1", "DB_NAME": args.db, "DB_USER": "sot", "DB_PASSWORD": "sot",
           "KAFKA_BOOTSTRAP_SERVERS": args.bootstrap, "CHANGES_TOPIC": args.topic, "HTTP_HOST": "127.0.0.1",
           "HTTP_PORT": str(args.port), "MANAGEMENT_HOST": "127.0.0.1", "MANAGEMENT_PORT": str(args.port + 2),
           "SUPERUSER_PASSWORD": "bench-password", "SUPERUSER_API_TOKEN": TOKEN, "MALLOC_ARENA_MAX": "2",
           "DATA_SOURCE_SYNC_CHECK": "off", "DISPATCHER_URL": "http://127.0.0.1:1"}
    return subprocess.Popen(["java", *JAVA_OPTS, "-jar", os.path.join(app, "quarkus-run.jar")],
                            stdout=log, stderr=subprocess.STDOUT, env=env)


def one(args, label, app, log):
    load = os.getloadavg()[0]
    process = start(args, app, log)
    url = f"http://127.0.0.1:{args.port}/api/dcim/sites/?limit=1"
    deadline = time.monotonic() + 300
    try:
        while True:
            if process.poll() is not None:
                raise SystemExit(f"{label} exited ({process.returncode}); see {log.name}")
            try:
                if get(url) == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{label} did not answer within 300 s")
            time.sleep(0.02)
        wall = process_age_seconds(process.pid)
        cpu = cpu_seconds(process.pid)
        rss_start = rss_mb(process.pid)
        pages = [f"http://127.0.0.1:{args.port}/api/dcim/sites/?limit=50&offset={i % 5 * 50}"
                 for i in range(args.requests)]

        def worker(part):
            for page in part:
                get(page)

        threads = [threading.Thread(target=worker, args=(pages[i::4],)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        time.sleep(6)  # one TrimNativeHeapInterval: freed malloc memory goes back, as it would in service
        rss_load = rss_mb(process.pid)
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return {"build": label, "startup_s": round(wall, 3), "cpu_s": round(cpu, 2), "rss_at_start_mb": round(rss_start),
            "rss_after_load_mb": round(rss_load), "load_average_before": load}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="quarkus-app directory of build A")
    parser.add_argument("--b", required=True, help="quarkus-app directory of build B")
    parser.add_argument("--starts", type=int, default=5, help="starts per build")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--db", required=True, help="a database records-api has migrated (and may write to)")
    parser.add_argument("--topic", default="bench-startup-ab")
    parser.add_argument("--port", type=int, default=18080, help="HTTP port; management = port + 2")
    parser.add_argument("--bootstrap", default="127.0.0.1:9092")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    runs = []
    with open(args.out + ".log", "w") as log:
        # one unmeasured start of each: the first start after a build pays for the page cache
        for label, app in (("A", args.a), ("B", args.b)):
            one(args, label, app, log)
        for n in range(args.starts):
            for label, app in (("A", args.a), ("B", args.b)) if n % 2 == 0 else (("B", args.b), ("A", args.a)):
                result = one(args, label, app, log)
                runs.append(result)
                print(f"  {label}: start-up {result['startup_s']:.2f} s, CPU {result['cpu_s']:.1f} s, RSS "
                      f"{result['rss_at_start_mb']} MB at start, {result['rss_after_load_mb']} MB after "
                      f"{args.requests} GETs (load {result['load_average_before']:.1f})", flush=True)
    print(f"\nmedians of {args.starts} alternated starts per build ({os.cpu_count()} CPUs, load average now "
          f"{os.getloadavg()[0]:.1f})")
    summary = {}
    for label, app in (("A", args.a), ("B", args.b)):
        mine = [r for r in runs if r["build"] == label]
        summary[label] = {key: statistics.median(r[key] for r in mine)
                          for key in ("startup_s", "cpu_s", "rss_at_start_mb", "rss_after_load_mb")}
        s = summary[label]
        print(f"  {label} ({app}): start-up {s['startup_s']:.2f} s, CPU {s['cpu_s']:.2f} s, RSS "
              f"{s['rss_at_start_mb']:.0f} MB at start, {s['rss_after_load_mb']:.0f} MB after load")
    with open(args.out, "w") as f:
        json.dump({"summary": summary, "runs": runs, "cpus": os.cpu_count()}, f, indent=2)


if __name__ == "__main__":
    main()
