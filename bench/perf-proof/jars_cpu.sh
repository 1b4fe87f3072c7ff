#!/usr/bin/env bash
# jars_cpu.sh PATH SCRIPT BUILD...: builds of records-api (quarkus-app copies at /tmp/perf/app-BUILD)
# one after the other in svc.sh's slot c, alone on the machine (ab_cpu.sh runs two at once): each gets
# 120 s of load at 32 connections for the JIT, then three cpu_get.py runs of 15 s (req/s, p99 and
# CPU per request: java / postgres / rest). ARGS in the environment go to the wrk script, e.g.
# ARGS="/tmp/perf/c.ids /api/dcim/devices/" jars_cpu.sh /api/dcim/devices/ get_random_id.lua base new
T="Authorization: Token 0123456789abcdef0123456789abcdef01234567"
path=$1 script=$2; shift 2
for v in "$@"; do
  SVC_JAR=/tmp/perf/app-$v/quarkus-run.jar JAVA_OPTS="-Xmx160m -XX:+UseSerialGC" /tmp/perf/svc.sh start c >/dev/null
  for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:18084/api/status/ -H "$T" && break; sleep 0.2; done
  BENCH_TOKEN=${T#*Token } BENCH_WRK_DIR=/work/main/bench/wrk WRK_RESULT=/dev/null \
    wrk -t2 -c32 -d120s -s /work/main/bench/wrk/$script "http://127.0.0.1:18084$path" ${ARGS:+-- $ARGS} >/dev/null
  echo "== $v"; for k in 1 2 3; do python3 /tmp/perf/cpu_get.py c 15 32 "$path" $script $ARGS; done
  /tmp/perf/svc.sh stop c >/dev/null
done
