#!/usr/bin/env python3
"""fixed.py port path n: n GET requests over 4 keep-alive connections (threads)."""
import http.client, sys, threading
port, path, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
H = {"Authorization": "Token 0123456789abcdef0123456789abcdef01234567", "Accept": "application/json"}
def worker(k):
    c = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(k):
        c.request("GET", path, headers=H); r = c.getresponse(); r.read()
        assert r.status == 200, r.status
ts = [threading.Thread(target=worker, args=(n // 4,)) for _ in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
