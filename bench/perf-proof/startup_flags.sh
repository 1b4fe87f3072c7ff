#!/usr/bin/env bash
# startup_flags.sh N [EXTRA_OPTS...]: starts svc.sh's slot b N times with the stack's records-api
# options, a CDS archive of its own (/tmp/perf/b.jsa; train one first: start b with
# -XX:ArchiveClassesAtExit=/tmp/perf/b.jsa, send it some requests, stop it) and EXTRA; prints the
# seconds from the process's start to its first authenticated 200 and the CPU seconds used by then.
# Session 25 compared JIT settings with it (C1 only, tier-4 thresholds raised 4x and 10x).
set -euo pipefail
cd /tmp/perf
n=$1; shift
for i in $(seq "$n"); do
  ./svc.sh stop b >/dev/null 2>&1 || true
  SVC_ENV="MALLOC_ARENA_MAX=2" JAVA_OPTS="-Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 -XX:SharedArchiveFile=/tmp/perf/b.jsa -Xlog:cds=off -Xlog:cds+dynamic=off $*" ./svc.sh start b >/dev/null
  pid=$(cat b.pid)
  until curl -sf -o /dev/null -H 'Authorization: Token 0123456789abcdef0123456789abcdef01234567' \
      'http://127.0.0.1:18082/api/dcim/sites/?limit=1'; do sleep 0.02; done
  python3 - "$pid" <<'PY'
import os, sys
pid = sys.argv[1]; tick = os.sysconf("SC_CLK_TCK")
f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
up = float(open("/proc/uptime").read().split()[0])
print(f"{up - int(f[19]) / tick:.2f} s, cpu {(int(f[11]) + int(f[12])) / tick:.2f} s")
PY
done
./svc.sh stop b >/dev/null 2>&1 || true
