#!/usr/bin/env bash
# svc.sh start|stop a|b [extra java opts...]
set -euo pipefail
cmd=$1 which=$2; shift 2
case $which in
  a) JAR=/tmp/perf/app-38b/quarkus-run.jar PORT=18080 MPORT=19000 DB=sot_bench_a ;;
  b) JAR=/tmp/perf/app-main/quarkus-run.jar PORT=18082 MPORT=19002 DB=sot_bench_b ;;
  c) JAR=/work/main/records-api/target/quarkus-app/quarkus-run.jar PORT=18084 MPORT=19004 DB=sot_bench_c ;;
  f) JAR=/tmp/perf/app-f8/quarkus-run.jar PORT=18086 MPORT=19006 DB=sot_bench_f ;;
esac
[[ -n ${SVC_DB:-} ]] && DB=$SVC_DB
[[ -n ${SVC_JAR:-} ]] && JAR=$SVC_JAR   # another build in a slot (e.g. two jars swapped between slots)
PIDF=/tmp/perf/$which.pid
case $cmd in
  start)
    [[ -s $PIDF ]] && kill -0 "$(cat $PIDF)" 2>/dev/null && { echo "already runs"; exit 1; }
    cd "$(dirname $JAR)"
    env DB_HOST=127.0.0.1 DB_PORT=5432 DB_NAME=$DB DB_USER=sot DB_PASSWORD=sot \
      SUPERUSER_NAME=admin SUPERUSER_PASSWORD=admin-perf-pw SUPERUSER_API_TOKEN=0123456789abcdef0123456789abcdef01234567 \
      DISPATCHER_URL=http://127.0.0.1:18999 KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 \
      CHANGES_TOPIC=bench.$DB.perf.object-changes SOT_DEBUG_STATEMENT_COUNT_HEADER=false \
      HTTP_HOST=127.0.0.1 HTTP_PORT=$PORT QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=$PORT \
      MANAGEMENT_HOST=127.0.0.1 MANAGEMENT_PORT=$MPORT ${SVC_ENV:-} \
      setsid java ${JAVA_OPTS:-} "$@" -jar quarkus-run.jar \
      >/tmp/perf/$which.log 2>&1 < /dev/null &
    echo $! > $PIDF; echo "started $which pid $(cat $PIDF)" ;;
  stop)
    pid=$(cat $PIDF); kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"; rm -f $PIDF; echo "stopped $which" ;;
esac
