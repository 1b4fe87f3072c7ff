#!/usr/bin/env python3
"""Bulk create: POST of a list of 1,000 new interfaces (on 20 seeded devices), repeated; reports
objects/s per request and their median. Each request starts from an idle change pipeline
(pipeline.py), so the relay and dispatcher work left by the previous one does not slow it.
Unmeasured requests come first, in windows of --warmup seconds of request time, until the
windows' objects/s have stopped rising (stats.steady over the windows, at most --warmup-max
seconds), as bench/run's warm-up of the load tests: the JIT compiles the bulk path while it
serves them. Per-request rates (~0.2 s each) looked steady on a plateau of the JIT: a fresh
records-api went 3268, 4846, 4614, 4921 objects/s, was called steady after 4 requests and
measured 5,564 objects/s, against ~8,000 once its bulk path had run for a minute."""

import argparse
import json
import sys
import time

import pipeline
from api_client import ApiClient
from stats import median, steady

DEVICES_PER_REQUEST = 20


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--device-ids", required=True, help="file of seeded device ids, one a line")
    parser.add_argument("--objects", type=int, default=1000, help="interfaces per request")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--warmup", type=float, default=5, help="seconds of request time per warm-up window")
    parser.add_argument("--warmup-max", type=float, default=90, help="most seconds of unmeasured requests")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with open(args.device_ids) as ids:
        devices = [int(line) for line in ids if line.strip()][:DEVICES_PER_REQUEST]
    api = ApiClient(args.api, args.token)

    def create(label):
        """POSTs one bulk create from an idle pipeline; its objects/s."""
        pipeline.wait_drained(120, quiet=True)
        items = [{"device": devices[k % len(devices)], "name": f"bulk{label}-{k}", "type": "1000base-t"}
                 for k in range(args.objects)]
        started = time.monotonic()
        created = api.post("/api/dcim/interfaces/", items)
        seconds = time.monotonic() - started
        if len(created) != args.objects:
            raise SystemExit(f"bulk create returned {len(created)} objects, expected {args.objects}")
        return args.objects / seconds

    warmup, spent = [], 0.0
    while not warmup or spent + args.warmup <= args.warmup_max:  # the first window always
        objects, seconds = 0, 0.0
        while seconds < args.warmup:
            rate = create(f"warm{len(warmup)}-{objects}")
            objects += args.objects
            seconds += args.objects / rate
        warmup.append(objects / seconds)
        spent += seconds
        if steady(warmup):
            break
    print(f"    warm-up: {spent:.0f} s of unmeasured requests, {args.warmup:g}-s windows"
          f" ({', '.join(f'{r:.0f}' for r in warmup)} objects/s)", flush=True)
    rates, statements = [], []
    for rep in range(args.repetitions):
        rates.append(create(rep))
        if api.last_headers.get("X-SQL-Statements"):
            statements.append(int(api.last_headers["X-SQL-Statements"]))
        print(f"    bulk create {rep + 1}/{args.repetitions}: {args.objects} interfaces"
              f" ({rates[-1]:.0f} objects/s)", flush=True)
    result = {"objects_per_request": args.objects, "repetitions": args.repetitions,
              "warmup_objects_per_s": [round(r, 1) for r in warmup],
              "objects_per_s": {"median": round(median(rates), 1), "min": round(min(rates), 1),
                                "max": round(max(rates), 1), "all": [round(r, 1) for r in rates]},
              "sql_statements_per_request": median(statements)}
    with open(args.out, "w") as out:
        json.dump(result, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
