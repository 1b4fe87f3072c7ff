#!/usr/bin/env python3
"""threads.py svc mode path seconds: CPU ms per 1000 requests by thread group (comm, digits collapsed), user/sys."""
import os, re, subprocess, sys, collections
svc, mode, path, sec = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
PORTS = {"a": 18080, "b": 18082, "c": 18084, "f": 18086}
pid = int(open(f"/tmp/perf/{svc}.pid").read()); TICK = os.sysconf("SC_CLK_TCK")
def snap():
    d = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try: s = open(f"/proc/{pid}/task/{t}/stat").read()
        except FileNotFoundError: continue
        comm = s[s.index("(") + 1:s.rindex(")")]; f = s.rsplit(")", 1)[1].split()
        d[t] = (re.sub(r"\d+", "N", comm), int(f[11]), int(f[12]))
    return d
s0 = snap()
out = subprocess.run(["wrk", "-t2", "-c4", f"-d{sec}s", "-s", "/tmp/perf/count.lua", f"http://127.0.0.1:{PORTS[svc]}{path}", "--", mode, "100000000"],
                     env=dict(os.environ, BENCH_TOKEN="0123456789abcdef0123456789abcdef01234567"), capture_output=True, text=True).stdout
s1 = snap()
reqs = int(re.search(r"requests=(\d+)", out)[1])
g = collections.defaultdict(lambda: [0, 0])
for t, (c, u, s) in s1.items():
    u0, st0 = (s0[t][1], s0[t][2]) if t in s0 else (0, 0)
    g[c][0] += u - u0; g[c][1] += s - st0
k = 1000.0 * 1000 / TICK / reqs
tot_u = sum(v[0] for v in g.values()) * k; tot_s = sum(v[1] for v in g.values()) * k
print(f"{svc} {path} {reqs} req: total {tot_u + tot_s:.0f} CPU ms/1000 (user {tot_u:.0f}, sys {tot_s:.0f})")
for c, (u, s) in sorted(g.items(), key=lambda x: -(x[1][0] + x[1][1])):
    if u + s: print(f"   {c:28} user {u * k:7.1f}  sys {s * k:7.1f}")
