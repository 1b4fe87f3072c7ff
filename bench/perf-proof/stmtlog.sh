#!/usr/bin/env bash
# stmtlog.sh SVC DB N CMD...: server time per statement text while CMD runs, divided by N.
# Logs every statement of DB (durations only: logging 30,000 bind parameters made binds look 10x
# dearer), restarts SVC so that its sessions pick the setting up, runs CMD once as a warm-up left
# out of the summary and once measured, then resets the database's settings.
svc=$1 db=$2 n=$3; shift 3
psql -h 127.0.0.1 -U postgres -qc "alter database $db set log_min_duration_statement = 0" -c "alter database $db set log_parameter_max_length = 0"
/tmp/perf/svc.sh stop $svc >/dev/null; JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 /tmp/perf/svc.sh start $svc >/dev/null; sleep 8
"$@" >/dev/null   # warm-up with the same command
L=/var/log/postgresql/postgresql-15-main.log; s=$(wc -l < $L)
"$@"; sleep 2
tail -n +$s $L > /tmp/perf/stmt.log
psql -h 127.0.0.1 -U postgres -qc "alter database $db reset log_min_duration_statement" -c "alter database $db reset log_parameter_max_length"
python3 - $n <<'PY'
import re, collections, sys
n=int(sys.argv[1]); agg=collections.defaultdict(float)
for line in open('/tmp/perf/stmt.log'):
    m=re.search(r'duration: ([\d.]+) ms  (\w+)( [^:]*)?: (.{0,70})', line)
    if m: agg[(m[2], m[4])] += float(m[1])/n
for k,v in sorted(agg.items(), key=lambda x:-x[1])[:20]: print(f"{v:8.2f} ms  {k[0]:8s} {k[1]}")
PY
