#!/usr/bin/env python3
"""colcallers.py collapsed pattern [depth]: caller chains of the samples (async-profiler collapsed stacks) whose top frame matches."""
import sys, collections
f, pat = sys.argv[1], sys.argv[2]; depth = int(sys.argv[3]) if len(sys.argv) > 3 else 6
c = collections.Counter(); n = 0
for line in open(f):
    st, k = line.rstrip().rsplit(" ", 1); k = int(k); fr = st.split(";")
    if pat in fr[-1]:
        n += k; c[" < ".join(x.split("/")[-1] for x in reversed(fr[-1-depth:-1]))] += k
print(n, "samples")
for s, v in c.most_common(10): print(f"{v:5d}  {s}")
