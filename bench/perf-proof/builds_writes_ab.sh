#!/usr/bin/env bash
# builds_writes_ab.sh ROUNDS: two builds of records-api (/tmp/su/app-main: "old", /tmp/su/app-new:
# "new"; copies of records-api/target/quarkus-app whose CDS archives start_once.sh trained) one after
# the other on the bench's database left by bench/run (sot_bench; Kafka from deploy/local/stack
# infra): vacuum, 40 s of site POST and 20 s of PATCH @32 unmeasured, then site POST @32 and device
# PATCH @32 for 15 s each with the service's CPU per request. ORDER="new old" swaps the order;
# CDS_OPT= runs without the archive. Session 30: deflated vs stored jars, 15 pairs.
T=0123456789abcdef0123456789abcdef01234567
psql -h 127.0.0.1 -U sot -d sot_bench -Atc "select id from dcim_device order by id limit 2000" > /tmp/su/device.ids
for r in $(seq $1); do for v in ${ORDER:-old new}; do
  psql -h 127.0.0.1 -U postgres -d sot_bench -qc "vacuum analyze"
  app=$([[ $v == old ]] && echo /tmp/su/app-main || echo /tmp/su/app-new)
  cd $app
  env DB_HOST=127.0.0.1 DB_PORT=5432 DB_NAME=sot_bench DB_USER=sot DB_PASSWORD=sot SUPERUSER_NAME=admin \
    SUPERUSER_API_TOKEN=$T DISPATCHER_URL=http://127.0.0.1:18999 KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 MALLOC_ARENA_MAX=2 \
    CHANGES_TOPIC=su.object-changes HTTP_HOST=127.0.0.1 HTTP_PORT=18090 MANAGEMENT_HOST=127.0.0.1 MANAGEMENT_PORT=19090 \
    setsid java -Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 ${CDS_OPT--XX:SharedArchiveFile=$app/su.jsa} -Xlog:cds=off -Xlog:cds+dynamic=off -jar quarkus-run.jar >/tmp/su/ab.log 2>&1 </dev/null &
  pid=$!
  for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:18090/api/status/ -H "Authorization: Token $T" && break; sleep 0.2; done
  export BENCH_TOKEN=$T BENCH_WRK_DIR=/work/main/bench/wrk
  WRK_RESULT=/dev/null wrk -t2 -c32 -d40s -s /work/main/bench/wrk/post_site.lua http://127.0.0.1:18090/api/dcim/sites/ -- w$r$v >/dev/null
  WRK_RESULT=/dev/null wrk -t2 -c32 -d20s -s /work/main/bench/wrk/patch_random_id.lua http://127.0.0.1:18090/api/dcim/devices/ -- /tmp/su/device.ids /api/dcim/devices/ >/dev/null
  c0=$(awk '{print $14+$15}' /proc/$pid/stat)
  a=$(WRK_RESULT=/tmp/su/r.json wrk -t2 -c32 -d15s -s /work/main/bench/wrk/post_site.lua http://127.0.0.1:18090/api/dcim/sites/ -- m$r$v >/dev/null; python3 -c "import json;d=json.load(open('/tmp/su/r.json'));print(round(d['requests_per_s']), d['requests'])")
  c1=$(awk '{print $14+$15}' /proc/$pid/stat)
  a="$a req, Java CPU $(python3 -c "print(round(($c1-$c0)*10/${a#* }, 3))") ms/req"
  c0=$(awk '{print $14+$15}' /proc/$pid/stat)
  b=$(WRK_RESULT=/tmp/su/r.json wrk -t2 -c32 -d15s -s /work/main/bench/wrk/patch_random_id.lua http://127.0.0.1:18090/api/dcim/devices/ -- /tmp/su/device.ids /api/dcim/devices/ >/dev/null; python3 -c "import json;d=json.load(open('/tmp/su/r.json'));print(round(d['requests_per_s']), d['requests'])")
  c1=$(awk '{print $14+$15}' /proc/$pid/stat)
  b="$b req, Java CPU $(python3 -c "print(round(($c1-$c0)*10/${b#* }, 3))") ms/req"
  echo "round $r $v: site POST @32 $a req/s, PATCH @32 $b req/s"
  kill -TERM $pid; wait $pid 2>/dev/null
done; done
