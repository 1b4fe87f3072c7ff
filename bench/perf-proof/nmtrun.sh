#!/usr/bin/env bash
# nmtrun.sh: svc b with NMT on a fresh database: RSS and NMT summary after start, after seeding, after rssload
set -u
/tmp/perf/svc.sh stop b >/dev/null 2>&1
psql -h 127.0.0.1 -U postgres -qc "drop database if exists sot_bench_b" -c "create database sot_bench_b owner sot"
JAVA_OPTS="-Xmx256m -XX:NativeMemoryTracking=summary ${EXTRA:-}" /tmp/perf/svc.sh start b
for i in $(seq 60); do curl -sf -o /dev/null http://127.0.0.1:18082/api/status/ -H "Authorization: Token 0123456789abcdef0123456789abcdef01234567" && break; sleep 1; done
pid=$(cat /tmp/perf/b.pid)
snap() { echo "== $1: RSS $(ps -o rss= -p $pid | awk '{print int($1/1024)}') MB"; jcmd $pid VM.native_memory summary scale=MB | grep -E "^(Total|-)|committed=" | grep -E "Total|^-" | sed 's/^ *//' ; }
snap start
python3 /work/main/bench/lib/seed.py --api http://127.0.0.1:18082 --token 0123456789abcdef0123456789abcdef01234567 --scale 1 --parallel 3 --device-ids /tmp/perf/b.ids --out /tmp/perf/seed-b.json > /tmp/perf/seed-b.log 2>&1
snap seeded
psql -h 127.0.0.1 -U postgres -d sot_bench_b -qc "vacuum analyze"
/tmp/perf/rssload.sh b
snap loaded
sleep 20
snap idle
