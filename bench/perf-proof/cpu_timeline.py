#!/usr/bin/env python3
"""cpu_timeline.py SECONDS OUT: every 0.5 s, CPU ms used since the last sample by process kind
(dispatcher, records-api, kafka, postgres, receiver, wrk/python-bench, other), one JSON line each."""
import json, os, sys, time
TICK = os.sysconf("SC_CLK_TCK")
def kind(pid):
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        st = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None, 0
    f = st.rsplit(")", 1)[1].split()
    ms = (int(f[11]) + int(f[12])) * 1000.0 / TICK
    if "webhook-dispatcher" in cmd: k = "dispatcher"
    elif "records-api" in cmd or "quarkus-run" in cmd: k = "records-api"
    elif "kafka" in cmd: k = "kafka"
    elif "postgres" in st[:st.rindex(")") + 1] or cmd.startswith("postgres"): k = "postgres"
    elif "webhook_receiver" in cmd: k = "receiver"
    elif "python" in cmd or "wrk" in cmd: k = "bench-client"
    else: k = "other"
    return k, ms
def sample():
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            k, ms = kind(d)
            if k: out[d] = (k, ms)
    return out
dur, path = float(sys.argv[1]), sys.argv[2]
prev = sample(); end = time.time() + dur
with open(path, "w") as o:
    while time.time() < end:
        time.sleep(0.5)
        cur = sample(); delta = {}
        for pid, (k, ms) in cur.items():
            base = prev.get(pid, (k, 0.0))[1] if pid in prev else 0.0
            delta[k] = delta.get(k, 0.0) + max(0.0, ms - base)
        prev = cur
        o.write(json.dumps({"t": round(time.time(), 2), **{k: round(v) for k, v in delta.items()}}) + "\n"); o.flush()
