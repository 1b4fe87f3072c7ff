#!/usr/bin/env bash
# cpu_get.sh CONNS SECS PATH [wrk script [args]]: req/s, p99 and CPU ms per request of svc.sh's $SVC (default c):
# java, all postgres processes, the rest of the machine (wrk). Steady state needs minutes of load first.

conns=$1 secs=$2 path=$3; shift 3
python3 - "$conns" "$secs" "$path" "$@" <<'PY'
import os, re, subprocess, sys
sys.path.insert(0, "/tmp/perf")
from proccpu import proc_cpu, pg, total
conns, secs, path = sys.argv[1:4]; rest = sys.argv[4:]
svc = os.environ.get("SVC", "c"); port = {"b": 18082, "c": 18084}[svc]
pid = int(open(f"/tmp/perf/{svc}.pid").read())
env = dict(os.environ, BENCH_WRK_DIR="/work/main/bench/wrk", BENCH_TOKEN="0123456789abcdef0123456789abcdef01234567")
script = "/work/main/bench/wrk/" + (rest[0] if rest else "get.lua")
j0, g0, t0 = proc_cpu(pid), pg(), total()
out = subprocess.run(["wrk", "-t2", f"-c{conns}", f"-d{secs}s", "--latency", "-s", script, f"http://127.0.0.1:{port}" + path] + (["--"] + rest[1:] if rest else []), env=env, capture_output=True, text=True).stdout
j1, g1, t1 = proc_cpu(pid), pg(), total()
n = int(re.search(r"(\d+) requests in", out)[1]); rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
p99 = re.search(r"99%\s+(\S+)", out)[1]
print(f"{svc} {rps:7.1f} req/s p99 {p99}  per req: java {(j1-j0)/n:5.3f} ms  postgres {(g1-g0)/n:5.3f} ms  other {((t1-t0)-(j1-j0)-(g1-g0))/n:5.3f} ms")
PY
