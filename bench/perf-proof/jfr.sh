#!/usr/bin/env bash
# jfr.sh <svc> <name> <mode> <path> <seconds>: JFR profile of one load run; prints requests.
svc=$1 name=$2 mode=$3 path=$4 sec=${5:-15}
declare -A P=([a]=18080 [b]=18082 [c]=18084 [f]=18086)
pid=$(cat /tmp/perf/$svc.pid)
jcmd $pid JFR.start name=perf settings=/tmp/perf/fast.jfc filename=/tmp/perf/$svc-$name.jfr >/dev/null
BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 wrk -t2 -c4 -d${sec}s -s /tmp/perf/count.lua "http://127.0.0.1:${P[$svc]}$path" -- $mode 100000000 | grep RESULT > /tmp/perf/$svc-$name.reqs
jcmd $pid JFR.stop name=perf >/dev/null
cat /tmp/perf/$svc-$name.reqs
