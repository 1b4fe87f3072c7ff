#!/usr/bin/env python3
"""stacks.py rec.jfr TOPFRAME [depth]: most common call chains below samples whose top frame contains TOPFRAME."""
import collections, json, subprocess, sys
rec, want = sys.argv[1], sys.argv[2]; depth = int(sys.argv[3]) if len(sys.argv) > 3 else 8
out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "40", "--events", "jdk.ExecutionSample", rec], check=True, capture_output=True, text=True).stdout
evs = json.loads(out)["recording"]["events"]
c = collections.Counter(); n = 0
for e in evs:
    fr = [f'{f["method"]["type"]["name"].split("/")[-1]}.{f["method"]["name"]}:{f.get("lineNumber")}' for f in (e["values"].get("stackTrace") or {}).get("frames", [])]
    if fr and want in fr[0]:
        n += 1; c[" < ".join(fr[:depth])] += 1
print(n, "samples of", len(evs))
for k, v in c.most_common(12): print(f"{v:5d}  {k}")
