#!/usr/bin/env bash
# seeddrain.sh S SCALE: fresh database and service S seeded at SCALE; prints the relay's backlog at the end of seeding and seconds to drain it
S=$1; export SCALE=$2
DB=sot_bench_$S
/tmp/perf/svc.sh stop $S 2>/dev/null || true
psql -h 127.0.0.1 -U postgres -qc "drop database if exists $DB" -c "create database $DB owner sot" 2>/dev/null
/tmp/perf/svc.sh start $S >/dev/null
PORT=$([[ $S == b ]] && echo 18082 || echo 18084)
for i in $(seq 300); do curl -sf -o /dev/null http://127.0.0.1:$PORT/api/status/ -H 'Authorization: Token 0123456789abcdef0123456789abcdef01234567' && break; sleep 0.2; done
t0=$(date +%s.%N)
python3 /work/main/bench/lib/seed.py --api http://127.0.0.1:$PORT --token 0123456789abcdef0123456789abcdef01234567 --scale $SCALE --parallel 3 --device-ids /tmp/perf/$S.ids --out /tmp/perf/seed-$S.json > /tmp/perf/seed-$S.log 2>&1
t1=$(date +%s.%N)
q() { if [[ -n $(psql -h 127.0.0.1 -U postgres -Atc "select to_regclass('core_objectchange_pending')" $DB) ]]; then psql -h 127.0.0.1 -U postgres -Atc "select count(*) from core_objectchange_pending" $DB; else psql -h 127.0.0.1 -U postgres -Atc "select count(*) from core_objectchange where published_at is null and parked_at is null" $DB; fi; }
left=$(q); total=$(psql -h 127.0.0.1 -U postgres -Atc "select count(*) from core_objectchange" $DB)
while [[ $(q) != 0 ]]; do sleep 0.2; done
t2=$(date +%s.%N)
echo "$S: seeded $total changes in $(echo "$t1-$t0" | bc) s; backlog at the end $left; drained in $(echo "$t2-$t1" | bc) s"
