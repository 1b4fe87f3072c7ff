#!/usr/bin/env python3
"""jfrsum.py rec.jfr requests: CPU samples (self top frames, project frames inclusive, suspects)
and allocation (jdk.ObjectAllocationSample weight) per request, by top project frame and class."""
import collections, json, subprocess, sys
rec, reqs = sys.argv[1], int(sys.argv[2])
top = int(sys.argv[3]) if len(sys.argv) > 3 else 15
def events(kind, depth=64):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", str(depth), "--events", kind, rec],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]
def frames(ev):
    st = ev["values"].get("stackTrace") or {}
    return [f'{f["method"]["type"]["name"].replace("/", ".")}.{f["method"]["name"]}' for f in st.get("frames", [])]
SUSPECTS = {
  "RequestLogging": "org.sourceoftruth.records.web.RequestLogging",
  "HttpFilters": "org.sourceoftruth.records.web.HttpFilters",
  "MDC (jboss/logmanager)": "org.jboss.logmanager.MDC",
  "micrometer": "io.micrometer",
  "quarkus micrometer": "io.quarkus.micrometer",
  "logging (jboss.logmanager)": "org.jboss.logmanager",
  "hibernate": "org.hibernate",
  "engine.render": "org.sourceoftruth.records.engine.render",
  "engine.query": "org.sourceoftruth.records.engine.query",
  "kind": "org.sourceoftruth.records.kind",
  "auth": "org.sourceoftruth.records.auth",
  "jackson": "com.fasterxml.jackson",
  "pgjdbc": "org.postgresql",
}
ex = events("jdk.ExecutionSample")
n = len(ex)
selfc = collections.Counter(); proj = collections.Counter(); incl = collections.Counter(); sus = collections.Counter()
for e in ex:
    fr = frames(e)
    if not fr: continue
    selfc[fr[0]] += 1
    p = next((f for f in fr if f.startswith("org.sourceoftruth.")), None)
    if p: proj[p] += 1
    for f in set(fr):
        if f.startswith("org.sourceoftruth."): incl[f] += 1
    for k, pre in SUSPECTS.items():
        if any(f.startswith(pre) for f in fr): sus[k] += 1
print(f"== {rec}: {n} CPU samples, {reqs} requests")
print("-- self top frames"); [print(f"  {c*100/n:5.1f} %  {f}") for f, c in selfc.most_common(top)]
print("-- topmost project frame"); [print(f"  {c*100/n:5.1f} %  {f}") for f, c in proj.most_common(top)]
print("-- suspects (samples with a frame of ... anywhere on the stack)"); [print(f"  {sus[k]*100/n:5.1f} %  {k}") for k in SUSPECTS]
al = events("jdk.ObjectAllocationSample", 64)
tot = 0; byproj = collections.Counter(); bycls = collections.Counter(); bysus = collections.Counter()
for e in al:
    w = e["values"]["weight"]; tot += w
    fr = frames(e)
    p = next((f for f in fr if f.startswith("org.sourceoftruth.")), "(no project frame)")
    byproj[p] += w
    bycls[e["values"]["objectClass"]["name"]] += w
    for k, pre in SUSPECTS.items():
        if any(f.startswith(pre) for f in fr): bysus[k] += w
print(f"-- allocation: {tot/reqs/1024:.1f} KiB per request (sampled weight)")
print("  by topmost project frame:"); [print(f"  {w/reqs/1024:8.1f} KiB/req  {f}") for f, w in byproj.most_common(top)]
print("  by class:"); [print(f"  {w/reqs/1024:8.1f} KiB/req  {f}") for f, w in bycls.most_common(10)]
print("  suspects:"); [print(f"  {bysus[k]/reqs/1024:8.1f} KiB/req  {k}") for k in SUSPECTS]
