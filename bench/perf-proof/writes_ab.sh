#!/usr/bin/env bash
# writes_ab.sh ROUNDS: base (DB d) and new (DB c) one after the other in slot c, alone: site POST @32 and @1, device PATCH @32
T="Authorization: Token 0123456789abcdef0123456789abcdef01234567"
for r in $(seq $1); do for v in base new; do
  db=$([[ $v == base ]] && echo sot_bench_d || echo sot_bench_c); ids=$([[ $v == base ]] && echo /tmp/perf/d.ids || echo /tmp/perf/c.ids)
  SVC_DB=$db SVC_JAR=/tmp/perf/app-$v/quarkus-run.jar JAVA_OPTS="-Xmx160m -XX:+UseSerialGC" /tmp/perf/svc.sh start c >/dev/null
  for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:18084/api/status/ -H "$T" && break; sleep 0.2; done
  BENCH_TOKEN=${T#*Token } BENCH_WRK_DIR=/work/main/bench/wrk WRK_RESULT=/dev/null \
    wrk -t2 -c32 -d60s -s /work/main/bench/wrk/post_site.lua http://127.0.0.1:18084/api/dcim/sites/ -- w$RANDOM >/dev/null
  echo "== round $r $v"
  for k in 1 2; do python3 /tmp/perf/cpu_get.py c 15 32 /api/dcim/sites/ post_site.lua p$RANDOM; done
  echo -n "site POST @1: "; /tmp/perf/sitepost.sh 18084 1 15
  python3 /tmp/perf/cpu_get.py c 15 32 /api/dcim/devices/ patch_random_id.lua $ids /api/dcim/devices/
  /tmp/perf/svc.sh stop c >/dev/null
done; done
