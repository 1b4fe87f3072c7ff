#!/usr/bin/env bash
# fresh.sh S: drop/create sot_bench_S, start svc S, seed at $SCALE (default 0.1), vacuum analyze
S=$1; DB=sot_bench_$S; PORT=$([[ $S == b ]] && echo 18082 || echo 18084)
/tmp/perf/svc.sh stop $S >/dev/null 2>&1 || true
psql -h 127.0.0.1 -U postgres -qc "drop database if exists $DB" -c "create database $DB owner sot"
JAVA_OPTS="${JAVA_OPTS:--Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}" /tmp/perf/svc.sh start $S >/dev/null
for i in $(seq 300); do curl -sf -o /dev/null http://127.0.0.1:$PORT/api/status/ -H 'Authorization: Token 0123456789abcdef0123456789abcdef01234567' && break; sleep 0.2; done
python3 /work/main/bench/lib/seed.py --api http://127.0.0.1:$PORT --token 0123456789abcdef0123456789abcdef01234567 --scale ${SCALE:-0.1} --parallel 3 --device-ids /tmp/perf/$S.ids --out /tmp/perf/seed-$S.json > /tmp/perf/seed-$S.log 2>&1
psql -h 127.0.0.1 -U postgres -d $DB -qc "vacuum analyze"
echo "$S ready"
