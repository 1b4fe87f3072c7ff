#!/usr/bin/env python3
"""jit_cpu.py PID: CPU seconds (user + system) the JVM's JIT compiler threads ("C1 CompilerThre",
"C2 CompilerThre") of process PID have used so far; 0 when the process is gone.

bench/run reads it around each warm-up window and each measured run: on a 2-core machine the
compilers work for a minute or more of load on a new request path, and a run measured while they
do measures the compilation as much as the service."""
import os
import sys


def jit_cpu_seconds(pid):
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return 0.0
    for tid in tasks:
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended between the listing and the read
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        if "CompilerThre" in name:
            fields = stat[stat.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / tick


if __name__ == "__main__":
    print(f"{jit_cpu_seconds(sys.argv[1]):.2f}")
