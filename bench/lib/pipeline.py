#!/usr/bin/env python3
"""Waits until the change pipeline is idle: every change-log row published to Kafka by the outbox
relay, and every change event processed by the dispatcher (one dispatch.processed_change row per
event, whether or not a rule matched). Measurements start from an idle pipeline so that a backlog
left by seeding does not compete with them for the CPU.

Reads the database with psql; connection settings come from PGHOST, PGPORT, PGUSER, PGPASSWORD
and PGDATABASE.
"""

import argparse
import subprocess
import sys
import time

BACKLOG_SQL = ("select (select count(*) from core_objectchange where published_at is null),"
               " (select count(*) from core_objectchange) - (select count(*) from dispatch.processed_change)")


def backlog():
    """(changes not yet published, events not yet processed by the dispatcher)."""
    out = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-F", " ", "-c", BACKLOG_SQL],
                         check=True, capture_output=True, text=True).stdout
    unpublished, unprocessed = (int(v) for v in out.split())
    return unpublished, unprocessed


def wait_drained(timeout, quiet=False):
    """Blocks until both backlogs are 0; returns seconds waited. Exits when no progress is made
    for `timeout` seconds."""
    started = last_progress = time.monotonic()
    last = None
    while True:
        current = backlog()
        if current == (0, 0):
            return time.monotonic() - started
        if current != last:
            last, last_progress = current, time.monotonic()
            if not quiet:
                print(f"    pipeline backlog: {current[0]} unpublished, {current[1]} not processed by the dispatcher",
                      flush=True)
        if time.monotonic() - last_progress > timeout:
            raise SystemExit(f"the change pipeline made no progress for {timeout} s (backlog {current})")
        time.sleep(1 if sum(current) > 1000 else 0.2)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timeout", type=float, default=120, help="give up after this long without progress")
    args = parser.parse_args()
    waited = wait_drained(args.timeout)
    print(f"    change pipeline idle (waited {waited:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
