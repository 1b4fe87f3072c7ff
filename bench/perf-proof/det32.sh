#!/usr/bin/env bash
# det32.sh svc label [env]: restart svc with env, warm up 20 s on detail and 5 s on list, then detail @32 15 s, twice
s=$1; label=$2; shift 2
declare -A P=([a]=18080 [b]=18082); port=${P[$s]}
./svc.sh stop $s >/dev/null 2>&1
JAVA_OPTS="-Xmx256m ${XOPTS:-}" SVC_ENV="$*" ./svc.sh start $s >/dev/null
for i in $(seq 100); do curl -sf -o /dev/null -H "Authorization: Token 0123456789abcdef0123456789abcdef01234567" http://127.0.0.1:$port/api/dcim/sites/?limit=1 && break; sleep 0.2; done
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk; B=/work/main/bench/wrk
WRK_RESULT=/tmp/perf/w.json wrk -t2 -c8 -d20s -s $B/get.lua "http://127.0.0.1:$port/api/dcim/devices/7/" >/dev/null
for r in 1 2; do
WRK_RESULT=/tmp/perf/d.json wrk -t2 -c32 -d15s --timeout 10s -s $B/get.lua "http://127.0.0.1:$port/api/dcim/devices/7/" >/dev/null
python3 -c "import json; r=json.load(open('/tmp/perf/d.json')); print('$s $label detail @32', round(r['requests_per_s']), r['latency_ms']['p50'], r['latency_ms']['p99'])"
done
./svc.sh stop $s >/dev/null
