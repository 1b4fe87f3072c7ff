"""CPU milliseconds used so far, read from /proc: one process, all postgres processes, the machine."""
import os
TICK = os.sysconf("SC_CLK_TCK")
def proc_cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) * 1000.0 / TICK
def pg():
    t = 0
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if open(f"/proc/{p}/comm").read().strip() == "postgres": t += proc_cpu(p)
            except OSError: pass
    return t
def total():
    v = list(map(int, open("/proc/stat").readline().split()[1:8])); return (sum(v) - v[3] - v[4]) * 1000.0 / TICK
