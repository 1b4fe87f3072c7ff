#!/usr/bin/env bash
# gcexp.sh LABEL EXTRA_OPTS: restart c with the stack's records-api options + EXTRA and a GC log; 60 warm bulk requests, then 100 measured; median objects/s, GC totals, RSS
label=$1; extra=$2
cd /tmp/perf
./svc.sh stop c >/dev/null 2>&1
rm -f /tmp/perf/gc-$label.log
SVC_ENV="MALLOC_ARENA_MAX=2" JAVA_OPTS="-Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 $extra -Xlog:gc:file=/tmp/perf/gc-$label.log" ./svc.sh start c >/dev/null
for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:18084/api/status/ -H 'Authorization: Token 0123456789abcdef0123456789abcdef01234567' && break; sleep 0.2; done
python3 bulkloop.py 18084 60 >/dev/null
n0=$(wc -l < gc-$label.log)
rates=$(python3 bulkloop.py 18084 100 | tail -1)
tail -n +$((n0+1)) gc-$label.log > gcw-$label.log
python3 - "$label" "$rates" /tmp/perf/gcw-$label.log $(cat c.pid) <<'PY'
import re, statistics, sys
label, rates, log, pid = sys.argv[1], [float(x) for x in sys.argv[2].split()], sys.argv[3], sys.argv[4]
y=f=0.0; ny=nf=0
for l in open(log):
    m=re.search(r'Pause (Young|Full).* (\d+\.\d+)ms',l)
    if m:
        if m.group(1)=='Young': y+=float(m.group(2)); ny+=1
        else: f+=float(m.group(2)); nf+=1
rss=int(open(f"/proc/{pid}/status").read().split("VmRSS:")[1].split()[0])//1024
print(f"{label}: median {statistics.median(rates):.0f} obj/s, total {100000/sum(1000/r for r in rates):.0f}, young {ny}x {y:.0f} ms, full {nf}x {f:.0f} ms, RSS {rss} MB")
PY
