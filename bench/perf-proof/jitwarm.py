#!/usr/bin/env python3
"""jitwarm.py PORT PID WINDOWS SECS PATH: WINDOWS wrk runs of SECS each at 32 connections against a
freshly started service; per window its req/s, the CPU seconds of the JIT compiler threads and of
the whole process. Shows when the JIT has finished: session 26 (device list, scale 1) saw the
compilers use ~1.6-2 CPU-s per 10 s window for ~90 s, then ~0.1."""
import os, re, subprocess, sys
sys.path.insert(0, "/work/main/bench/lib")
from jit_cpu import thread_cpu_seconds
port, pid, n, secs, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def cpu():
    threads = thread_cpu_seconds(pid)
    return sum(t for name, t in threads.items() if "CompilerThre" in name), sum(threads.values())
for i in range(n):
    c0, t0 = cpu()
    out = subprocess.run(["wrk", "-t2", "-c32", f"-d{secs}s", "-H", "Authorization: Token 0123456789abcdef0123456789abcdef01234567",
                          f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True).stdout
    c1, t1 = cpu()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    print(f"window {i+1:2d}: {rps:7.0f} req/s   JIT {c1-c0:5.2f} s   process {t1-t0:5.2f} s", flush=True)
