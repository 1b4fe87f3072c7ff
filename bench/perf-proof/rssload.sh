#!/usr/bin/env bash
# rssload.sh svc...: the same load on each service in turn (lists, detail, PATCH, POST, bulk), then RSS and NMT
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk; B=/work/main/bench/wrk
declare -A P=([b]=18082 [c]=18084)
for s in "$@"; do p=${P[$s]}
  WRK_RESULT=/tmp/perf/rl.json wrk -t2 -c32 -d10s -s $B/get.lua "http://127.0.0.1:$p/api/dcim/devices/?limit=50" >/dev/null 2>&1
  python3 -c "import json; r=json.load(open('/tmp/perf/rl.json')); print('$s list', round(r['requests_per_s']), 'p99', r['latency_ms']['p99'])"
  wrk -t2 -c32 -d10s -s $B/get.lua "http://127.0.0.1:$p/api/dcim/devices/?limit=50&brief=1" >/dev/null 2>&1
  wrk -t2 -c32 -d10s -s $B/get_random_id.lua "http://127.0.0.1:$p/api/dcim/devices/" -- /tmp/perf/$s.ids /api/dcim/devices/ >/dev/null 2>&1
  WRK_RESULT=/tmp/perf/rl.json wrk -t2 -c32 -d10s -s $B/patch_random_id.lua "http://127.0.0.1:$p/api/dcim/devices/" -- /tmp/perf/$s.ids /api/dcim/devices/ >/dev/null 2>&1
  python3 -c "import json; r=json.load(open('/tmp/perf/rl.json')); print('$s patch', round(r['requests_per_s']), 'p99', r['latency_ms']['p99'])"
  wrk -t2 -c32 -d10s -s $B/post_site.lua "http://127.0.0.1:$p/api/dcim/sites/" -- rss$s$RANDOM >/dev/null 2>&1
  python3 /tmp/perf/bulkloop.py $p 5 >/dev/null
done
for s in "$@"; do pid=$(cat /tmp/perf/$s.pid); echo "$s RSS $(ps -o rss= -p $pid | awk '{print int($1/1024)}') MB"; done
