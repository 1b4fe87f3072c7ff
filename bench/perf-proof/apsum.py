#!/usr/bin/env python3
"""apsum.py collapsed.txt [pattern...]: total samples, by thread kind, and inclusive share of frames matching patterns."""
import sys, collections, re
f = sys.argv[1]; pats = sys.argv[2:]
tot = 0; thr = collections.Counter(); inc = collections.Counter(); self_ = collections.Counter()
for line in open(f):
    st, n = line.rstrip().rsplit(" ", 1); n = int(n); tot += n
    frames = st.split(";")
    thr[re.sub(r"\d+", "N", frames[0].strip("[]"))] += n
    self_[frames[-1]] += n
    seen = set()
    for fr in frames:
        for p in pats:
            if p in fr and p not in seen:
                seen.add(p); inc[p] += n
print(f"{f}: {tot} samples")
for p in pats: print(f"  {100*inc[p]/tot:5.1f} %  {p}")
print(" top self:")
for fr, n in self_.most_common(25): print(f"  {100*n/tot:5.1f} %  {fr[:110]}")
