#!/usr/bin/env bash
# sflags.sh N "optsA" "optsB" ...: N rounds of start-ups of svc.sh's slot c, one per option set in
# turn (the stack's records-api options plus the set; the bench's CDS archive), each printed by
# startup_milestones.py. Session 26: tier-4 thresholds x4 (-XX:Tier4InvocationThreshold=20000
# -XX:Tier4MinInvocationThreshold=2400 -XX:Tier4CompileThreshold=60000 -XX:Tier4BackEdgeThreshold=160000)
# against none; compiler thread priority; -XX:ArchiveRelocationMode=0.
cd /tmp/perf; n=$1; shift
base="-Xmx160m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000 -XX:SharedArchiveFile=/work/main/.local/bench/cds/records-api.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
for i in $(seq $n); do
  k=0
  for o in "$@"; do
    r=$(JAVA_OPTS="$base $o" python3 startup_milestones.py c)
    echo "[$k] $r   ($o)"; k=$((k+1))
  done
done
