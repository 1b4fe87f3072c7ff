#!/usr/bin/env python3
"""Start-up time of a service: from the start of its process to its first successful API request.

Waits for the stack's pid file of the service to name a new process (not --old-pid), then polls
--url every 20 ms with the API token until it answers 200. The process's start is read from
/proc/<pid>/stat, so the figure covers the whole JVM start, not only what the service logs.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request


def read_pid(pid_file, old_pid):
    try:
        with open(pid_file) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return None
    return pid if pid != old_pid else None


def process_age_seconds(pid):
    """Seconds since the process started (kernel clock ticks, 10 ms resolution)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    start_ticks = int(fields[19])  # field 22 of stat; fields[0] here is field 3
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


def answers_ok(url, token):
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pid-file", required=True)
    parser.add_argument("--old-pid", type=int, default=0)
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--timeout", type=float, default=180)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    deadline = time.monotonic() + args.timeout
    pid = None
    while pid is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"no new pid in {args.pid_file} within {args.timeout} s")
        time.sleep(0.01)
        pid = read_pid(args.pid_file, args.old_pid)
    while not answers_ok(args.url, args.token):
        if time.monotonic() > deadline or not os.path.exists(f"/proc/{pid}"):
            raise SystemExit(f"process {pid} did not answer {args.url} with 200 within {args.timeout} s")
        time.sleep(0.02)
    seconds = process_age_seconds(pid)
    with open(args.out, "w") as out:
        json.dump({"pid": pid, "seconds_to_first_success": round(seconds, 2), "url": args.url}, out)
    print(f"    first 200 from {args.url} after {seconds:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
