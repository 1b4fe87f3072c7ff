#!/usr/bin/env bash
# warm.sh port...: the same 60 s of mixed GETs on each service in turn
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk WRK_RESULT=/tmp/perf/x.json
for p in "$@"; do for path in "/api/dcim/devices/?limit=50" "/api/dcim/devices/1000/" "/api/dcim/devices/?limit=50&brief=1" "/api/dcim/devices/?limit=50"; do
  wrk -t2 -c32 -d15s -s /work/main/bench/wrk/get.lua "http://127.0.0.1:$p$path" > /dev/null 2>&1; done; done
