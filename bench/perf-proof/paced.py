#!/usr/bin/env python3
"""paced.py RATE SECONDS: PATCH sites' descriptions at RATE changes/s for SECONDS (8 threads)."""
import json, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
rate, secs = float(sys.argv[1]), float(sys.argv[2])
token = open('/work/main/.local/bench/superuser-token').read().strip()
start = time.time(); total = int(rate * secs)
def change(i):
    delay = start + i / rate - time.time()
    if delay > 0: time.sleep(delay)
    req = urllib.request.Request(f"http://127.0.0.1:8080/api/dcim/sites/{1 + i % 5}/", method="PATCH",
        data=json.dumps({"description": f"prof-{start}-{i}"}).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=30).read()
with ThreadPoolExecutor(8) as pool: list(pool.map(change, range(total)))
print("sent", total, "in", round(time.time() - start, 1), "s")
