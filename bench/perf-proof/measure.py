#!/usr/bin/env python3
"""CPU ms of a records-api process per 1,000 requests, alternating services.
usage: measure.py --services a,b --rounds 5 --out file.json"""
import argparse, json, os, re, subprocess, time, statistics
TOKEN = "0123456789abcdef0123456789abcdef01234567"
PORTS = {"a": 18080, "b": 18082, "c": 18084, "f": 18086}
TICK = os.sysconf("SC_CLK_TCK")
ENDPOINTS = [  # name, mode, path, count
    ("device_list", "get", "/api/dcim/devices/?limit=50", 6),
    ("site_detail", "get", "/api/dcim/sites/1/", 4),
    ("site_post", "post", "/api/dcim/sites/", 4),
    ("device_detail", "get", "/api/dcim/devices/7/", 4),
    ("ip_list", "get", "/api/ipam/ip-addresses/?parent=10.0.0.0/8&limit=100", 4),
    ("device_patch", "patch", "/api/dcim/devices/9/", 4),
    ("brief", "get", "/api/dcim/devices/?limit=50&brief=1", 4),
    ("filtered", "get", "/api/dcim/devices/?site=site-000&status=active&role=leaf&limit=50", 4),
]
def cpu(pid, exclude_jit=False):
    """utime+stime in ms of the process, or of its threads other than the JIT compilers."""
    if not exclude_jit:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) * 1000.0 / TICK
    tot = 0
    for t in os.listdir(f"/proc/{pid}/task"):
        try: s = open(f"/proc/{pid}/task/{t}/stat").read()
        except FileNotFoundError: continue
        if "CompilerThre" in s[s.index("(") + 1:s.rindex(")")]: continue
        f = s.rsplit(")", 1)[1].split(); tot += int(f[11]) + int(f[12])
    return tot * 1000.0 / TICK
def pgcpu():
    """utime+stime in ms of every postgres process (backends come and go: only live ones count)."""
    tot = 0
    for d in os.listdir("/proc"):
        if not d.isdigit(): continue
        try: st = open(f"/proc/{d}/stat").read()
        except (FileNotFoundError, ProcessLookupError): continue
        if "(postgres)" not in st[:st.rindex(")") + 1]: continue
        f = st.rsplit(")", 1)[1].split(); tot += int(f[11]) + int(f[12])
    return tot * 1000.0 / TICK
def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1]) // 1024
def wrk(port, mode, path, n):
    env = dict(os.environ, BENCH_TOKEN=TOKEN)
    out = subprocess.run(["wrk", "-t2", "-c4", f"-d{n}s", "--timeout", "10s", "-s", "/tmp/perf/count.lua",
                          f"http://127.0.0.1:{port}{path}", "--", mode, "100000000"],
                         env=env, capture_output=True, text=True).stdout
    m = re.search(r"RESULT requests=(\d+) bad=(\d+) seconds=([\d.]+)", out)
    return int(m[1]), int(m[2]), float(m[3])
ap = argparse.ArgumentParser()
ap.add_argument("--services", default="a,b"); ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--warmup", type=int, default=1); ap.add_argument("--out")
ap.add_argument("--only")
a = ap.parse_args()
svcs = a.services.split(",")
pids = {s: int(open(f"/tmp/perf/{s}.pid").read()) for s in svcs}
eps = [e for e in ENDPOINTS if not a.only or e[0] in a.only.split(",")]
res = {s: {e[0]: [] for e in eps} for s in svcs}
resx = {s: {e[0]: [] for e in eps} for s in svcs}
resg = {s: {e[0]: [] for e in eps} for s in svcs}
for r in range(a.warmup + a.rounds):
    order = svcs if r % 2 == 0 else list(reversed(svcs))
    for s in order:
        for name, mode, path, n in eps:
            wrk(PORTS[s], mode, path, 1)  # short unmeasured warm-up
            c0 = cpu(pids[s]); x0 = cpu(pids[s], True); g0 = pgcpu(); reqs, bad, sec = wrk(PORTS[s], mode, path, n); c1 = cpu(pids[s]); x1 = cpu(pids[s], True); g1 = pgcpu()
            v = (c1 - c0) * 1000.0 / reqs; vx = (x1 - x0) * 1000.0 / reqs; vg = (g1 - g0) * 1000.0 / reqs
            tag = "warmup" if r < a.warmup else f"round {r - a.warmup + 1}"
            print(f"{tag:8} {s} {name:12} {reqs:5d} req {bad} bad {reqs/sec:7.0f} req/s  {v:7.1f} CPU ms/1000 ({vx:7.1f} without JIT threads) pg {vg:6.1f}  load {open('/proc/loadavg').read().split()[0]}", flush=True)
            if r >= a.warmup: res[s][name].append(v); resx[s][name].append(vx); resg[s][name].append(vg)
summary = {s: {e: {"median": statistics.median(v), "min": min(v), "max": max(v), "all": v,
                   "median_without_jit": statistics.median(resx[s][e]), "median_pg": statistics.median(resg[s][e]), "all_without_jit": resx[s][e]} for e, v in d.items()} for s, d in res.items()}
for s in svcs: summary[s]["rss_mb"] = rss(pids[s])
print(json.dumps({s: {e: ([round(x["median"], 1), round(x["median_without_jit"], 1), round(x["median_pg"], 1)] if isinstance(x, dict) else x) for e, x in d.items()} for s, d in summary.items()}))
if a.out: json.dump(summary, open(a.out, "w"), indent=1)
