#!/usr/bin/env python3
"""children.py collapsed frame-substring [n]: inclusive share of the direct children of the (first) frame matching."""
import sys, collections
f, pat = sys.argv[1], sys.argv[2]; top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
tot = 0; inc = 0; ch = collections.Counter()
for line in open(f):
    st, k = line.rstrip().rsplit(" ", 1); k = int(k); tot += k; fr = st.split(";")
    for i, x in enumerate(fr):
        if pat in x:
            inc += k; ch[fr[i+1].split("/")[-1] if i + 1 < len(fr) else "(self)"] += k; break
print(f"{pat}: {100*inc/tot:.1f} % of {tot}")
for s, v in ch.most_common(top): print(f"  {100*v/tot:5.1f} %  {s}")
