#!/usr/bin/env bash
# drainwatch.sh S SCALE: seeddrain.sh plus a CPU timeline (by process kind) over seeding and drain
S=$1; SCALE=$2
python3 /tmp/perf/cpu_timeline.py 150 /tmp/perf/timeline-$S.jsonl &
tl=$!
JAVA_OPTS="-Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000" /tmp/perf/seeddrain.sh $S $SCALE
kill $tl 2>/dev/null
