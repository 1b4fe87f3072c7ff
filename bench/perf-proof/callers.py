#!/usr/bin/env python3
"""callers.py rec.jfr method-substring [depth]: for CPU samples whose top frame matches, the caller chains."""
import collections, json, subprocess, sys
rec, pat = sys.argv[1], sys.argv[2]; depth = int(sys.argv[3]) if len(sys.argv) > 3 else 4
out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "16", "--events", "jdk.ExecutionSample", rec], check=True, capture_output=True, text=True).stdout
c = collections.Counter(); n = 0
for ev in json.loads(out)["recording"]["events"]:
    fr = [f'{f["method"]["type"]["name"].split("/")[-1]}.{f["method"]["name"]}' for f in (ev["values"].get("stackTrace") or {}).get("frames", [])]
    if fr and pat in fr[0]:
        n += 1; c[" < ".join(fr[1:1 + depth])] += 1
print(n, "samples")
for k, v in c.most_common(12): print(f"{v:5d}  {k}")
