#!/usr/bin/env bash
# rssmode.sh "opts": starts svc.sh's slot c with the stack's records-api options plus opts (the
# bench's CDS archive), prints VmRSS after the first 200, runs rssload.sh's lists, detail, PATCH and
# POST and ten bulk creates of 1,000 interfaces, and prints VmRSS, RssAnon and RssFile after them.
cd /tmp/perf; ./svc.sh stop c >/dev/null 2>&1
JAVA_OPTS="-Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 -XX:SharedArchiveFile=/work/main/.local/bench/cds/records-api.jsa -Xlog:cds=off -Xlog:cds+dynamic=off $1" SVC_ENV="MALLOC_ARENA_MAX=2 ACCESS_LOG_LEVEL=WARN" ./svc.sh start c >/dev/null
pid=$(cat c.pid)
until curl -sf -o /dev/null -H 'Authorization: Token 0123456789abcdef0123456789abcdef01234567' 'http://127.0.0.1:18084/api/dcim/sites/?limit=1'; do sleep 0.05; done
echo "after start: $(grep -E 'VmRSS' /proc/$pid/status | tr -s ' ')"
./rssload.sh c >/dev/null 2>&1; python3 bulkloop.py 18084 10 >/dev/null
sleep 6
echo "after load ($1): $(grep -E 'VmRSS|RssAnon|RssFile' /proc/$pid/status | tr -s ' ' | tr '\n' ' ')"
./svc.sh stop c >/dev/null
