#!/usr/bin/env python3
"""burst.py CHANGES: freeze the dispatcher, PATCH CHANGES site descriptions in bulk, wait 4 s for the
relay, thaw, and report deliveries/s from the receiver's arrival times (first to last)."""
import json, os, signal, sys, time, urllib.request
n = int(sys.argv[1]); tag = f"burst-{time.time()}"
token = open('/work/main/.local/bench/superuser-token').read().strip()
pid = int(open('/work/main/.local/bench/run/webhook-dispatcher.pid').read())
def req(method, path, body=None, port=8080):
    r = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(r, timeout=60))
start = req("GET", "/stats", port=8190)["count"]
sites = [s["id"] for s in req("GET", "/api/dcim/sites/?limit=1000&brief=1")["results"]]
os.kill(pid, signal.SIGSTOP)
try:
    for i in range(0, n, len(sites)):
        req("PATCH", "/api/dcim/sites/", [{"id": s, "description": f"{tag}-{i+j}"} for j, s in enumerate(sites[:min(len(sites), n - i)])])
    time.sleep(4)
finally:
    os.kill(pid, signal.SIGCONT)
t0 = time.time()
while True:
    c = req("GET", "/stats", port=8190)["count"]
    if time.time() - t0 > 120: break
    time.sleep(0.5)
    if req("GET", "/stats", port=8190)["count"] == c and c > start: break
recs = [r for r in req("GET", f"/records?from={start}", port=8190) if r[3] and r[3].startswith(tag)]
arr = sorted(r[0] for r in recs)
print(len(recs), "deliveries,", round(len(arr) / (arr[-1] - arr[0]), 1), "deliveries/s first to last")
