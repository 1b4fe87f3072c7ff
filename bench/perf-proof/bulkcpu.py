#!/usr/bin/env python3
"""bulkcpu.py SVC REPS: POSTs of 1,000 interfaces, one at a time; objects/s each, median, and CPU ms per request (java, postgres, rest) around each request, the outbox drained before each."""
import json, os, statistics, subprocess, sys, time, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proccpu import proc_cpu, pg, total
svc, reps = sys.argv[1], int(sys.argv[2])
port = {"b": 18082, "c": 18084}[svc]
pid = int(open(f"/tmp/perf/{svc}.pid").read())
token = "0123456789abcdef0123456789abcdef01234567"
devices = [int(l) for l in open(f"/tmp/perf/{svc}.ids") if l.strip()][:20]
def psql(sql):
    return subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", sql, f"sot_bench_{svc}"], capture_output=True, text=True).stdout.strip()
# the pending list since V166; before it, unpublished rows of the change log
BACKLOG = ("select count(*) from core_objectchange_pending" if psql("select to_regclass('core_objectchange_pending')")
           else "select count(*) from core_objectchange where published_at is null and parked_at is null")
def drained():
    while psql(BACKLOG) != "0":
        time.sleep(0.2)
rates = []
J = G = T = 0.0
for rep in range(reps):
    drained(); time.sleep(0.3)
    j0, g0, t0 = proc_cpu(pid), pg(), total()
    items = [{"device": devices[k % 20], "name": f"bc{time.time()}-{k}", "type": "1000base-t"} for k in range(1000)]
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/dcim/interfaces/", method="POST", data=json.dumps(items).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    t = time.monotonic(); urllib.request.urlopen(req, timeout=120).read(); s = time.monotonic() - t
    j1, g1, t1 = proc_cpu(pid), pg(), total()
    J += j1 - j0; G += g1 - g0; T += t1 - t0
    rates.append(1000 / s)
print(" ".join(f"{r:.0f}" for r in rates))
print(f"median {statistics.median(rates):.0f} objects/s; CPU ms per request: java {J/reps:.0f}  postgres {G/reps:.0f}  rest {(T-J-G)/reps:.0f} (read around each request, with the outbox drained before it)")
