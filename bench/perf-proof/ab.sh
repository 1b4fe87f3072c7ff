#!/usr/bin/env bash
# ab.sh rounds dur "name|path" ... : alternate b and c on each path, wrk @32, print req/s p50 p99
rounds=$1 dur=$2; shift 2
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk; B=/work/main/bench/wrk
declare -A P=([b]=18082 [c]=18084)
for spec in "$@"; do name=${spec%%|*}; path=${spec#*|}
  for s in b c; do WRK_RESULT=/tmp/perf/w.json wrk -t2 -c8 -d3s -s $B/get.lua "http://127.0.0.1:${P[$s]}$path" >/dev/null; done
  for r in $(seq $rounds); do for s in b c; do
    WRK_RESULT=/tmp/perf/r.json wrk -t2 -c32 -d${dur}s --timeout 10s -s $B/get.lua "http://127.0.0.1:${P[$s]}$path" >/dev/null
    python3 -c "import json; r=json.load(open('/tmp/perf/r.json')); print('$name $s', round(r['requests_per_s']), r['latency_ms']['p50'], r['latency_ms']['p99'], 'non2xx', r.get('non_2xx', r.get('errors')))"
  done; done
done
