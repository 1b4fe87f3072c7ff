#!/usr/bin/env bash
# replay.sh svc: fresh DB, fresh JVM (-Xmx256m), seed as bench does, then the bench's read sequence
# (5 s warm-up @8, 15 s @4, 15 s @32) for four reads, JFR over the device list @32.
set -u
s=$1; declare -A P=([a]=18080 [b]=18082); declare -A D=([a]=sot_bench_a [b]=sot_bench_b)
port=${P[$s]}; db=${D[$s]}
./svc.sh stop a >/dev/null 2>&1; ./svc.sh stop b >/dev/null 2>&1
psql -h 127.0.0.1 -U postgres -qc "drop database if exists $db" -c "create database $db owner sot" 2>/dev/null
JAVA_OPTS="-Xmx256m" ./svc.sh start $s >/dev/null
for i in $(seq 100); do curl -sf -o /dev/null -H "Authorization: Token 0123456789abcdef0123456789abcdef01234567" http://127.0.0.1:$port/api/dcim/sites/?limit=1 && break; sleep 0.2; done
python3 /work/main/bench/lib/seed.py --api http://127.0.0.1:$port --token 0123456789abcdef0123456789abcdef01234567 --scale 0.1 --parallel 3 --device-ids /tmp/perf/ids-$s.txt --out /tmp/perf/seed-$s.json >/dev/null 2>&1
for i in $(seq 300); do [[ $(psql -h 127.0.0.1 -U postgres -d $db -Atc "select count(*) from core_objectchange_pending") == 0 ]] && break; sleep 1; done
sleep 3
vacuumdb -h 127.0.0.1 -U postgres -z -q -d $db
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk
B=/work/main/bench/wrk
for spec in "list|/api/dcim/devices/?limit=50" "brief|/api/dcim/devices/?limit=50&brief=1" "detail|/api/dcim/devices/7/"; do
  name=${spec%%|*}; path=${spec#*|}
  WRK_RESULT=/tmp/perf/r-$s-$name.w wrk -t2 -c8 -d5s --timeout 10s -s $B/get.lua "http://127.0.0.1:$port$path" >/dev/null
  for c in 4 32; do
    [[ -n ${JFR:-} && $name == list && $c == 32 ]] && jcmd $(cat $s.pid) JFR.start name=r settings=/tmp/perf/fast.jfc filename=/tmp/perf/r-$s-list.jfr >/dev/null
    WRK_RESULT=/tmp/perf/r-$s-$name@$c.json wrk -t2 -c$c -d15s --timeout 10s -s $B/get.lua "http://127.0.0.1:$port$path" >/dev/null
    [[ -n ${JFR:-} && $name == list && $c == 32 ]] && jcmd $(cat $s.pid) JFR.stop name=r >/dev/null
    python3 -c "import json,sys; r=json.load(open('/tmp/perf/r-$s-$name@$c.json')); print('$s $name @$c', round(r['requests_per_s']), r['latency_ms']['p99'])"
  done
done
