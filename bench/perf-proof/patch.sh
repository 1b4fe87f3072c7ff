#!/usr/bin/env bash
# patch.sh SVC CONNS SECONDS: wrk PATCH of random devices
S=$1; PORT=$([[ $S == b ]] && echo 18082 || echo 18084)
export BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk WRK_RESULT=/tmp/perf/wrkp-$S.json BENCH_LOADAVG=''
wrk -t2 -c$2 -d${3}s --latency -s /work/main/bench/wrk/patch_random_id.lua http://127.0.0.1:$PORT/api/dcim/devices/ -- /tmp/perf/$S.ids /api/dcim/devices/ | grep -E "Requests/sec|50%|99%" | tr -s ' ' | tr '\n' ' '; echo
