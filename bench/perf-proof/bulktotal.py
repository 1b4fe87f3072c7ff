#!/usr/bin/env python3
"""bulktotal.py SVC REPS: REPS back-to-back POSTs of 1,000 interfaces, then waits until the outbox is drained; CPU ms per request of the machine, the JVM and postgres over the whole (relay included)."""
import json, os, subprocess, sys, time, urllib.request
sys.path.insert(0, "/tmp/perf")
from proccpu import proc_cpu, pg, total
svc, reps = sys.argv[1], int(sys.argv[2])
port = {"b": 18082, "c": 18084}[svc]
pid = int(open(f"/tmp/perf/{svc}.pid").read())
token = "0123456789abcdef0123456789abcdef01234567"
devices = [int(l) for l in open(f"/tmp/perf/{svc}.ids") if l.strip()][:20]
def psql(sql):
    return subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", sql, f"sot_bench_{svc}"], capture_output=True, text=True).stdout.strip()
BACKLOG = ("select count(*) from core_objectchange_pending" if psql("select to_regclass('core_objectchange_pending')")
           else "select count(*) from core_objectchange where published_at is null and parked_at is null")
def drain():
    while psql(BACKLOG) != "0": time.sleep(0.05)
drain(); time.sleep(0.5)
j0, g0, t0, w0 = proc_cpu(pid), pg(), total(), time.monotonic()
for rep in range(reps):
    items = [{"device": devices[k % 20], "name": f"bt{time.time()}-{k}", "type": "1000base-t"} for k in range(1000)]
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/dcim/interfaces/", method="POST", data=json.dumps(items).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    urllib.request.urlopen(req, timeout=120).read()
w1 = time.monotonic()
drain()
j1, g1, t1 = proc_cpu(pid), pg(), total()
print(f"{svc}: {reps*1000/(w1-w0):.0f} objects/s; CPU ms per 1000: machine {(t1-t0)/reps:.0f}, java {(j1-j0)/reps:.0f}, postgres {(g1-g0)/reps:.0f} (drain polling included)")
