#!/usr/bin/env python3
"""bulkloop.py PORT REPS: POST 1000 interfaces REPS times to the service on PORT; prints objects/s each."""
import json, sys, time, urllib.request
port, reps = int(sys.argv[1]), int(sys.argv[2])
token = "0123456789abcdef0123456789abcdef01234567"
name = {18082: "b", 18084: "c"}[port]
devices = [int(l) for l in open(f"/tmp/perf/{name}.ids") if l.strip()][:20]
rates = []
for rep in range(reps):
    items = [{"device": devices[k % 20], "name": f"bl{time.time()}-{k}", "type": "1000base-t"} for k in range(1000)]
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/dcim/interfaces/", method="POST", data=json.dumps(items).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    t = time.monotonic(); body = urllib.request.urlopen(req, timeout=120).read(); s = time.monotonic() - t
    rates.append(1000 / s)
print(" ".join(f"{r:.0f}" for r in rates))
