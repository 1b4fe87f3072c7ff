#!/usr/bin/env python3
"""jit_cpu.py PID [SINCE]: CPU seconds (user + system) the JVM's JIT compiler threads ("C1
CompilerThre", "C2 CompilerThre") of process PID have used so far, or since SINCE (an earlier
reading of this script); 0 when the process is gone.

bench/run reads it around each warm-up window and each measured run: on a 2-core machine the
compilers work for a minute or more of load on a new request path, and a run measured while they
do measures the compilation as much as the service. thread_cpu_seconds gives every thread's CPU
seconds by name."""
import os
import sys


def thread_cpu_seconds(pid):
    """CPU seconds (user + system) of each thread of process PID, summed by thread name; {} when
    the process is gone."""
    tick = os.sysconf("SC_CLK_TCK")
    by_name = {}
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return by_name
    for tid in tasks:
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended between the listing and the read
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        by_name[name] = by_name.get(name, 0) + (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return by_name


def jit_cpu_seconds(pid):
    return sum(seconds for name, seconds in thread_cpu_seconds(pid).items() if "CompilerThre" in name)


if __name__ == "__main__":
    since = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    print(f"{jit_cpu_seconds(sys.argv[1]) - since:.2f}")
