#!/usr/bin/env bash
# train.sh svc archive: start with ArchiveClassesAtExit, a few requests of each kind, stop (the archive is written at exit)
s=$1; arc=$2; declare -A P=([a]=18080 [b]=18082 [c]=18084); port=${P[$s]}
T="Authorization: Token 0123456789abcdef0123456789abcdef01234567"
JAVA_OPTS="-Xmx256m -XX:ArchiveClassesAtExit=$arc" ./svc.sh start $s >/dev/null
for i in $(seq 100); do curl -sf -o /dev/null -H "$T" "http://127.0.0.1:$port/api/dcim/sites/?limit=1" && break; sleep 0.2; done
curl -s -o /dev/null -H "$T" "http://127.0.0.1:$port/api/dcim/devices/?limit=5"
curl -s -o /dev/null -H "$T" -H "Content-Type: application/json" -X POST -d "{\"name\":\"train-$RANDOM\",\"slug\":\"train-$RANDOM\"}" "http://127.0.0.1:$port/api/dcim/sites/"
t0=$(date +%s.%N); ./svc.sh stop $s >/dev/null; echo "stop took $(echo "$(date +%s.%N) - $t0" | bc) s"; ls -la $arc
