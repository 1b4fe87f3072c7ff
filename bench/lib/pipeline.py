#!/usr/bin/env python3
"""Waits until the change pipeline is idle: every change-log row published to Kafka by the outbox
relay, and every change event processed by the dispatcher (one dispatch.processed_change row per
event, whether or not a rule matched). Measurements start from an idle pipeline so that a backlog
left by seeding does not compete with them for the CPU.

Only changes after BENCH_CHANGES_BASELINE (a core_objectchange id; default 0) count for the
dispatcher: bench/run has it skip the seeding's events, which no event rule could match.

Reads the database with psql; connection settings come from PGHOST, PGPORT, PGUSER, PGPASSWORD
and PGDATABASE.
"""

import argparse
import os
import subprocess
import sys
import time

UNPUBLISHED_SQL = "select count(*) from core_objectchange_pending"
BACKLOG_SQL = ("select (" + UNPUBLISHED_SQL + "),"
               " (select count(*) from core_objectchange c where c.id > {baseline} and not exists"
               " (select 1 from dispatch.processed_change p where p.change_id = c.change_id))")


def backlog(published_only=False):
    """(changes not yet published, events not yet processed by the dispatcher). With published_only
    the second is 0 and the dispatcher's schema is not read: where the dispatcher never ran
    (bench/list-load stops it at once) its tables may not exist."""
    if published_only:
        return int(psql(UNPUBLISHED_SQL)), 0
    baseline = int(os.environ.get("BENCH_CHANGES_BASELINE") or 0)
    unpublished, unprocessed = (int(v) for v in psql(BACKLOG_SQL.format(baseline=baseline)).split())
    return unpublished, unprocessed


def psql(sql):
    done = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-F", " ", "-c", sql], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"psql failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def wait_drained(timeout, quiet=False, published_only=False):
    """Blocks until both backlogs (or the first only) are 0; returns seconds waited. Exits when no
    progress is made for `timeout` seconds."""
    started = last_progress = time.monotonic()
    last, last_shown = None, 0.0
    while True:
        current = backlog(published_only)
        if current == (0, 0):
            return time.monotonic() - started
        if current != last:
            last, last_progress = current, time.monotonic()
            if not quiet and time.monotonic() - last_shown >= 5:
                last_shown = time.monotonic()
                print(f"    pipeline backlog: {current[0]} unpublished, {current[1]} not processed by the dispatcher",
                      flush=True)
        if time.monotonic() - last_progress > timeout:
            raise SystemExit(f"the change pipeline made no progress for {timeout} s (backlog {current})")
        time.sleep(1 if sum(current) > 1000 else 0.2)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timeout", type=float, default=120, help="give up after this long without progress")
    parser.add_argument("--published-only", action="store_true",
                        help="wait for the outbox relay only (the dispatcher is not running)")
    args = parser.parse_args()
    waited = wait_drained(args.timeout, published_only=args.published_only)
    print(f"    change pipeline idle (waited {waited:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
