#!/usr/bin/env python3
"""cpu_around.py SVC SECONDS CONNS: req/s and CPU ms per 1000 PATCHes (java, postgres, rest of machine) of random-id device PATCHes."""
import os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proccpu import proc_cpu, pg, total
svc, secs, conns = sys.argv[1], sys.argv[2], sys.argv[3]
PORT = {"a": 18080, "b": 18082, "c": 18084}[svc]
pid = int(open(f"/tmp/perf/{svc}.pid").read())
env = dict(os.environ, BENCH_WRK_DIR="/work/main/bench/wrk", BENCH_TOKEN="0123456789abcdef0123456789abcdef01234567")
j0, g0, t0 = proc_cpu(pid), pg(), total()
out = subprocess.run(["wrk", "-t2", f"-c{conns}", f"-d{secs}s", "-s", "/work/main/bench/wrk/patch_random_id.lua",
                      f"http://127.0.0.1:{PORT}", "--", f"/tmp/perf/{svc}.ids", "/api/dcim/devices/"], env=env, capture_output=True, text=True).stdout
j1, g1, t1 = proc_cpu(pid), pg(), total()
n = int(re.search(r"(\d+) requests in", out)[1]); rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
print(f"{svc} {rps:7.1f} req/s  per 1000: java {(j1-j0)*1000/n:6.0f} ms  postgres {(g1-g0)*1000/n:6.0f} ms  other {((t1-t0)-(j1-j0)-(g1-g0))*1000/n:6.0f} ms")
