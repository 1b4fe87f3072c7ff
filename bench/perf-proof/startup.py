#!/usr/bin/env python3
"""startup.py svc [env...]: starts the service, polls an authenticated request every 20 ms; prints
wall seconds and process CPU seconds at the first 200, then RSS after 2,000 device list + 2,000
site detail requests; stops the service."""
import os, subprocess, sys, time, urllib.request, json
svc = sys.argv[1]; extra = sys.argv[2:]
PORTS = {"a": 18080, "b": 18082, "c": 18084}; TICK = os.sysconf("SC_CLK_TCK")
env = dict(os.environ, JAVA_OPTS="-Xmx256m " + os.environ.get("XOPTS", ""), SVC_ENV=" ".join(extra))
t0 = time.monotonic()
subprocess.run(["/tmp/perf/svc.sh", "start", svc], env=env, check=True, capture_output=True)
pid = int(open(f"/tmp/perf/{svc}.pid").read())
url = f"http://127.0.0.1:{PORTS[svc]}/api/dcim/sites/?limit=1"
req = urllib.request.Request(url, headers={"Authorization": "Token 0123456789abcdef0123456789abcdef01234567"})
boot = int(open("/proc/stat").read().split("btime")[1].split()[0])
def stat():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK, int(f[19]) / TICK
while True:
    try:
        if urllib.request.urlopen(req, timeout=2).status == 200: break
    except Exception: pass
    time.sleep(0.02)
cpu, start_ticks = stat()
uptime = float(open("/proc/uptime").read().split()[0])
wall = uptime - start_ticks
def rss():
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1]) // 1024
rss0 = rss()
tok = dict(os.environ, BENCH_TOKEN="0123456789abcdef0123456789abcdef01234567")
for path, n in (("/api/dcim/devices/?limit=50", 2000), ("/api/dcim/sites/1/", 2000)):
    # fixed count with plain curl-free python: wrk with a duration would make it load-dependent
    subprocess.run(["python3", "/tmp/perf/fixed.py", str(PORTS[svc]), path, str(n)], check=True)
rss1 = rss()
subprocess.run(["/tmp/perf/svc.sh", "stop", svc], check=True, capture_output=True)
r = {"svc": svc, "env": extra, "xopts": os.environ.get("XOPTS", ""), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "rss_at_start_mb": rss0, "rss_after_4000_mb": rss1,
     "load": open("/proc/loadavg").read().split()[0]}
print(json.dumps(r), flush=True)
