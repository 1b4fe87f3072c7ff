#!/usr/bin/env python3
"""Reads of objects of several megabytes, in parallel, against one records-api process.

Started by bench/large-objects (which starts the service); standard library only. Phases:

  ordinary  the hot path: GET of a page of 50 ordinary sites and of 50 devices with wrk, for
            --duration each: req/s, p99 and the service's CPU per request
  large     three sites with comments of --sizes MB (a tenant of their own), then, each for
            --duration with --parallel clients at once: the list page of those sites (full and
            brief), the largest one's detail, and a bulk PATCH of the three (the response
            carries them whole): req/s, p50/p99, count of 5xx and of failed connections

Peak RSS of the service (sampled every 100 ms) and its heap after each phase are reported;
the service must still run at the end.
"""

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from api_client import ApiClient  # noqa: E402
from stats import percentile  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class RssSampler(threading.Thread):
    """The highest RSS of a process while it runs (every 100 ms)."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.running = True

    def run(self):
        while self.running:
            try:
                self.peak = max(self.peak, rss_bytes(self.pid))
            except OSError:
                return
            time.sleep(0.1)

    def stop(self):
        self.running = False
        self.join()
        return self.peak


def heap_used(management):
    """jvm_memory_used_bytes of the heap areas, from /q/metrics."""
    try:
        with urllib.request.urlopen(management + "/q/metrics", timeout=10) as r:
            text = r.read().decode()
    except OSError:
        return None
    total = 0.0
    for line in text.splitlines():
        if line.startswith("jvm_memory_used_bytes") and 'area="heap"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


def parallel_requests(api, token, method, path, body, parallel, duration):
    """`parallel` clients, each sending its next request when the last one is answered, for
    `duration` seconds (each at least once). Latencies in ms, statuses counted."""
    parts = urllib.parse.urlsplit(api)
    payload = None if body is None else json.dumps(body).encode()
    latencies, statuses, failures = [], {}, []
    lock = threading.Lock()
    deadline = time.monotonic() + duration
    start_gate = threading.Barrier(parallel)

    def client():
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        start_gate.wait()
        first = True
        while first or time.monotonic() < deadline:
            first = False
            began = time.monotonic()
            try:
                connection.request(method, path, body=payload, headers=headers)
                response = connection.getresponse()
                while response.read(1 << 20):
                    pass
                status = response.status
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    failures.append(type(e).__name__)
                connection.close()
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
                continue
            elapsed = (time.monotonic() - began) * 1000
            with lock:
                latencies.append(elapsed)
                statuses[status] = statuses.get(status, 0) + 1
        connection.close()

    began = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(parallel)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.monotonic() - began
    return {
        "requests": len(latencies),
        "seconds": round(seconds, 2),
        "requests_per_s": round(len(latencies) / seconds, 2),
        "p50_ms": round(percentile(latencies, 50) or 0, 1),
        "p99_ms": round(percentile(latencies, 99) or 0, 1),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "5xx": sum(v for k, v in statuses.items() if k >= 500),
        "failed_connections": len(failures),
    }


def wrk(api, token, path, duration, connections, work):
    """wrk on one URL with bench/wrk/get.lua: its JSON summary."""
    bench = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = os.path.join(work, "wrk-" + str(abs(hash(path))) + ".json")
    env = dict(os.environ, BENCH_TOKEN=token, WRK_RESULT=result, BENCH_WRK_DIR=os.path.join(bench, "wrk"))
    subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--timeout", "10s",
         "-s", os.path.join(bench, "wrk", "get.lua"), api + path],
        env=env, check=True, stdout=subprocess.DEVNULL)
    with open(result) as f:
        return json.load(f)


def measured(pid, run):
    """Runs `run` and adds the service's CPU milliseconds per request to its result (None when
    the service died meanwhile)."""
    before = cpu_seconds(pid)
    result = run()
    try:
        spent = cpu_seconds(pid) - before
        result["cpu_ms_per_request"] = round(1000 * spent / max(1, result["requests"]), 3)
    except OSError:
        result["cpu_ms_per_request"] = None
    return result


def seed_ordinary(client):
    """50 ordinary sites (a few hundred bytes of comments each)."""
    existing = client.get("/api/dcim/sites/?q=ordinary-&limit=1")["count"]
    if existing < 50:
        client.post("/api/dcim/sites/", [
            {"name": f"ordinary-{i}", "slug": f"ordinary-{i}", "description": f"site {i}",
             "comments": "Rack row A, cage 4. " * 10}
            for i in range(existing, 50)])


def seed_large(client, sizes):
    """A tenant and one site per size (MB of comments) in it; their ids."""
    tenants = client.get("/api/tenancy/tenants/?slug=large-objects")["results"]
    tenant = tenants[0] if tenants else client.post(
        "/api/tenancy/tenants/", {"name": "large objects", "slug": "large-objects"})
    ids = []
    for size in sizes:
        slug = f"large-{size}mb".replace(".", "-")
        found = client.get(f"/api/dcim/sites/?slug={slug}&brief=1")["results"]
        if found:
            ids.append(found[0]["id"])
            continue
        site = client.post("/api/dcim/sites/", {
            "name": slug, "slug": slug, "tenant": tenant["id"],
            "comments": "x" * int(size * 1_000_000)})
        ids.append(site["id"])
    return ids


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True)
    parser.add_argument("--management", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--sizes", default="1,5,10", help="MB of comments of each large site")
    parser.add_argument("--parallel", type=int, default=64)
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--ordinary-connections", type=int, default=8)
    parser.add_argument("--skip-ordinary", action="store_true")
    parser.add_argument("--skip-large", action="store_true", help="only the ordinary pages (a before/after check of the hot path)")
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    client = ApiClient(args.api, args.token)
    result = {"sizes_mb": sizes, "parallel": args.parallel, "duration_s": args.duration,
              "load_average_before": open("/proc/loadavg").read().split()[:3], "runs": {}}

    def run(name, fn):
        sampler = RssSampler(args.pid)
        sampler.start()
        outcome = measured(args.pid, fn)
        outcome["peak_rss_mb"] = round(sampler.stop() / 2**20, 1)
        heap = heap_used(args.management)
        outcome["heap_used_after_mb"] = None if heap is None else round(heap / 2**20, 1)
        result["runs"][name] = outcome
        latency = f"p50 {outcome.get('p50_ms', outcome.get('latency_ms', {}).get('p50'))} ms, " \
                  f"p99 {outcome.get('p99_ms', outcome.get('latency_ms', {}).get('p99'))} ms"
        errors = outcome.get("5xx", outcome.get("errors", {}).get("status"))
        print(f"    {name:44s} {outcome['requests_per_s']:8.1f} req/s  {latency:28s}"
              f" 5xx/non-2xx {errors}  CPU {outcome['cpu_ms_per_request']} ms/req"
              f"  peak RSS {outcome['peak_rss_mb']} MB", flush=True)

    if not args.skip_ordinary:
        seed_ordinary(client)
        for path in ("/api/dcim/sites/?q=ordinary-&limit=50", "/api/dcim/devices/?limit=50"):
            wrk(args.api, args.token, path, 5, args.ordinary_connections, args.work)  # warm-up
            run(f"GET {path} @{args.ordinary_connections}",
                lambda p=path: wrk(args.api, args.token, p, args.duration, args.ordinary_connections, args.work))

    if args.skip_large:
        return finish(args, result)
    ids = seed_large(client, sizes)
    page = "/api/dcim/sites/?tenant=large-objects"
    bulk = [{"id": i, "description": "bulk"} for i in ids]
    for name, method, path, body in (
            (f"GET {page}", "GET", page, None),
            (f"GET {page}&brief=1", "GET", page + "&brief=1", None),
            (f"GET /api/dcim/sites/<{sizes[-1]} MB>/", "GET", f"/api/dcim/sites/{ids[-1]}/", None),
            ("PATCH /api/dcim/sites/ (bulk, the three)", "PATCH", "/api/dcim/sites/", bulk)):
        run(f"{name} x{args.parallel}",
            lambda m=method, p=path, b=body: parallel_requests(
                args.api, args.token, m, p, b, args.parallel, args.duration))
        if not os.path.exists(f"/proc/{args.pid}"):
            print("    records-api died (see its log); the runs after this one are skipped")
            break
    return finish(args, result)


def finish(args, result):
    alive = os.path.exists(f"/proc/{args.pid}")
    result["service_alive_at_end"] = alive
    print(f"    records-api still runs: {alive}")
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    return 0 if alive and all(r.get("5xx", 0) == 0 and r.get("failed_connections", 0) == 0
                              for r in result["runs"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
