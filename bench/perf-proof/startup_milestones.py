#!/usr/bin/env python3
"""startup_milestones.py SVC: starts the service (JAVA_OPTS from the environment), polls a sites list every 10 ms, prints the seconds from process start to the first 200, the CPU seconds the process used by then and the largest per thread (main is "java"; the JIT compilers are "C1/C2 CompilerT"); stops it. JFR at start: add -XX:StartFlightRecording=... to JAVA_OPTS."""
import os, subprocess, sys, time, urllib.request
sys.path.insert(0, "/work/main/bench/lib")
from jit_cpu import thread_cpu_seconds
svc = sys.argv[1]; PORT = {"b": 18082, "c": 18084}[svc]; TICK = os.sysconf("SC_CLK_TCK")
subprocess.run(["/tmp/perf/svc.sh", "start", svc], check=True, capture_output=True)
pid = int(open(f"/tmp/perf/{svc}.pid").read())
req = urllib.request.Request(f"http://127.0.0.1:{PORT}/api/dcim/sites/?limit=1", headers={"Authorization": "Token 0123456789abcdef0123456789abcdef01234567"})
while True:
    try:
        if urllib.request.urlopen(req, timeout=2).status == 200: break
    except Exception: pass
    time.sleep(0.01)
f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
wall = float(open("/proc/uptime").read().split()[0]) - int(f[19]) / TICK
cpu = (int(f[11]) + int(f[12])) / TICK
threads = thread_cpu_seconds(pid)
time.sleep(0.5)
subprocess.run(["/tmp/perf/svc.sh", "stop", svc], check=True, capture_output=True)
print(f"start-up {wall:.2f} s, cpu {cpu:.2f} s; by thread: " + ", ".join(f"{n[:12]} {t:.2f}" for n, t in sorted(threads.items(), key=lambda x: -x[1])[:4]))
