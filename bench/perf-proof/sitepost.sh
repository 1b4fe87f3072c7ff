#!/usr/bin/env bash
# sitepost.sh PORT CONNS SECONDS: wrk of post_site.lua; prints req/s and p50
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk WRK_RESULT=/tmp/perf/wrk-$1.json BENCH_LOADAVG=''
t=$([[ $2 == 1 ]] && echo 1 || echo 2)
wrk -t$t -c$2 -d${3}s --latency -s /work/main/bench/wrk/post_site.lua http://127.0.0.1:$1/api/dcim/sites/ -- "p$RANDOM" | grep -E "Requests/sec|50%|99%" | tr -s ' ' | tr '\n' ' '; echo
