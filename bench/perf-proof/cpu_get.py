#!/usr/bin/env python3
"""cpu_get.py SVC SECONDS CONNS PATH [SCRIPT [ARGS...]]: req/s, p99 and CPU ms per 1000 requests of
svc.sh's SVC (java, all postgres processes, rest of machine = wrk) under one wrk run of a
bench/wrk script (default get.lua; e.g. get_random_id.lua /tmp/perf/c.ids /api/dcim/devices/).
A JVM reaches its steady state only after minutes of load (see bench/run's warm_up)."""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proccpu import proc_cpu, pg, total
svc, secs, conns, path = sys.argv[1:5]
script, args = (sys.argv[5], sys.argv[6:]) if len(sys.argv) > 5 else ("get.lua", [])
PORT = {"a": 18080, "b": 18082, "c": 18084}[svc]
pid = int(open(f"/tmp/perf/{svc}.pid").read())
j0, p0, t0 = proc_cpu(pid), pg(), total()
env = dict(os.environ, BENCH_TOKEN="0123456789abcdef0123456789abcdef01234567", WRK_RESULT="/tmp/perf/cg.json", BENCH_WRK_DIR="/work/main/bench/wrk")
subprocess.run(["wrk", f"-t{min(2, int(conns))}", f"-c{conns}", f"-d{secs}s", "-s", f"/work/main/bench/wrk/{script}", f"http://127.0.0.1:{PORT}{path}"]
               + (["--"] + args if args else []), env=env, check=True, capture_output=True)
j1, p1, t1 = proc_cpu(pid), pg(), total()
r = json.load(open("/tmp/perf/cg.json")); n = r["requests"] if "requests" in r else r["requests_per_s"] * float(secs)
k = 1000.0 / n
print(f"{svc} {path} @{conns}: {r['requests_per_s']:.0f} req/s p99 {r['latency_ms']['p99']} ms; CPU ms per 1000: java {(j1-j0)*k:.0f}, postgres {(p1-p0)*k:.0f}, rest {((t1-t0)-(j1-j0)-(p1-p0))*k:.0f}")
