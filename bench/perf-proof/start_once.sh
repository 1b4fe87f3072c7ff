#!/usr/bin/env bash
# start_once.sh APPDIR [extra java opts]: one start of records-api from APPDIR (a copy of
# records-api/target/quarkus-app) with the stack's JVM options and its own CDS archive (APPDIR/su.jsa,
# trained by the first start); prints the seconds from the process's start to its first
# authenticated 200 of /api/dcim/sites/?limit=1 and the CPU seconds used by then; stops it.
# Database SU_DB (default sot_su, migrated by the first start), Kafka on 127.0.0.1:9092
# (deploy/local/stack infra). Session 30 alternated two builds with it:
#   for i in 1 2 3 4 5 6; do echo "a $(start_once.sh /tmp/su/app-a)  b $(start_once.sh /tmp/su/app-b)"; done
# and profiled a start with async-profiler (tools.profiler:async-profiler 3.0 from Maven Central):
#   start_once.sh APPDIR "-agentpath:/tmp/su/libasyncProfiler.so=start,event=cpu,interval=1ms,threads,collapsed,file=/tmp/su/p.txt" 
set -euo pipefail
app=$1; shift
jar=$app/quarkus-run.jar; jsa=$app/su.jsa
if [[ -s $jsa ]]; then cds=(-XX:SharedArchiveFile=$jsa -Xlog:cds=off -Xlog:cds+dynamic=off)
else cds=(-XX:ArchiveClassesAtExit=$jsa -Xlog:cds=off -Xlog:cds+dynamic=off); fi
cd "$app"
env DB_HOST=127.0.0.1 DB_PORT=5432 DB_NAME=${SU_DB:-sot_su} DB_USER=sot DB_PASSWORD=sot \
  SUPERUSER_NAME=admin SUPERUSER_PASSWORD=admin-perf-pw SUPERUSER_API_TOKEN=0123456789abcdef0123456789abcdef01234567 \
  DISPATCHER_URL=http://127.0.0.1:18999 KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 MALLOC_ARENA_MAX=2 \
  CHANGES_TOPIC=su.object-changes HTTP_HOST=127.0.0.1 HTTP_PORT=18090 QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=18090 \
  MANAGEMENT_HOST=127.0.0.1 MANAGEMENT_PORT=19090 ${SU_ENV:-} \
  setsid java -Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 "${cds[@]}" "$@" -jar quarkus-run.jar >/tmp/su/last.log 2>&1 </dev/null &
pid=$!
python3 - "$pid" <<'PY'
import os, sys, time, urllib.request
pid = int(sys.argv[1]); tick = os.sysconf("SC_CLK_TCK")
req = urllib.request.Request("http://127.0.0.1:18090/api/dcim/sites/?limit=1",
    headers={"Authorization": "Token 0123456789abcdef0123456789abcdef01234567"})
t_end = time.monotonic() + 60
while time.monotonic() < t_end:
    try:
        if urllib.request.urlopen(req, timeout=2).status == 200: break
    except Exception: pass
    time.sleep(0.01)
up = float(open("/proc/uptime").read().split()[0])
f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
print(f"{up - int(f[19]) / tick:.2f} {(int(f[11]) + int(f[12])) / tick:.2f}")
PY
kill -TERM $pid; wait $pid 2>/dev/null || true
