#!/usr/bin/env python3
"""Webhook delivery benchmark: change sites through the API and time their webhooks at a local
receiver (webhook_receiver.py), first with 1 event rule, then with 20 (each rule has its own
webhook, so every change is delivered 20 times).

For each number of rules:
  burst  N deliveries' worth of changes (N changes with 1 rule, N/20 with 20 rules), made as fast
         as the API takes them (bulk PATCH of 100 sites per request); the dispatcher drains the
         backlog: deliveries/s = deliveries / (last arrival - first arrival). Latencies here are
         mostly time spent queued behind the burst. With --dispatcher-pid-file the dispatcher is
         frozen (SIGSTOP) while the changes are made and published, and thawed (SIGCONT) once all
         are in Kafka, so that the figure is its drain rate and not the API's rate of changes;
         its Kafka session timeout must then outlast the pause (bench/run sets 120 s).
  paced  single PATCHes at a steady --rate changes/s for --paced-seconds; its change->delivery
         latency (receiver arrival minus the change's timestamp in the webhook body) is the figure
         to compare with the latency target, since the dispatcher is not saturated by design.

Before the measured burst, --warmup-bursts unmeasured bursts of the same size (their rates are
kept as warmup_deliveries_per_s), as wrk's warm-up run does for the API: the dispatcher's first
load is otherwise the measured one, and its JIT compiles meanwhile (a fresh dispatcher's bursts of
1,000 at 1 rule: 563, 985, 1216, 1354 deliveries/s, one after the other). Each measured phase
starts from a drained pipeline and, when the server runs with autovacuum off, vacuumed tables:
a burst leaves ~3 dead delivery rows per delivery (insert, lease, outcome), and the next burst
measured 1,374-1,489 deliveries/s on them against 1,924-2,353 vacuumed (5,000 deliveries, 1 rule).
"""

import argparse
import json
import os
import signal
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import subprocess

import pipeline
from api_client import ApiClient
from stats import percentile

EVENT_TYPES = ["object_created", "object_updated", "object_deleted"]
TARGET_SITES = 100
BULK_CHUNK = 100
PACED_THREADS = 4


class Receiver:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"

    def _get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=60) as response:
            return json.load(response)

    def count(self):
        return self._get("/stats")["count"]

    def records(self, start):
        return self._get(f"/records?from={start}")

    def wait_for(self, expected, stall_timeout):
        """Waits until `expected` records arrived; gives up after stall_timeout s without new ones."""
        last, last_change = -1, time.monotonic()
        while True:
            current = self.count()
            if current >= expected:
                return current
            if current != last:
                last, last_change = current, time.monotonic()
            elif time.monotonic() - last_change > stall_timeout:
                return current
            time.sleep(0.2)


def tagged(records, prefix):
    return [r for r in records if isinstance(r[3], str) and r[3].startswith(prefix)]


def order(records, prefix):
    """Per-object order at the receiver: the changes of one site are tagged prefix + i with i rising
    in commit order. An inversion is a delivery whose i is below the one before it (same webhook
    path, same site), counting first copies only; repeats are deliveries seen again (same
    X-Hook-Delivery, or, without one, the same tag at the same path)."""
    seen, last, inversions, repeats = set(), {}, 0, 0
    for r in sorted(records, key=lambda r: r[0]):
        identity = (r[2], r[5] if len(r) > 5 and r[5] else r[3])
        if identity in seen:
            repeats += 1
            continue
        seen.add(identity)
        try:
            number = int(r[3][len(prefix):])
        except (TypeError, ValueError):
            continue
        lane = (r[2], r[4] if len(r) > 4 else None)
        if lane in last and number < last[lane]:
            inversions += 1
        last[lane] = number
    return {"inversions": inversions, "repeats": repeats}


def summarise(records, expected, started):
    arrivals = [r[0] for r in records]
    latencies = [r[1] for r in records if r[1] is not None]
    span = max(arrivals) - min(arrivals) if len(arrivals) > 1 else None
    return {
        "expected_deliveries": expected,
        "deliveries": len(records),
        "deliveries_per_s": round(len(records) / span, 1) if span else None,
        "seconds_first_change_to_last_delivery": round(max(arrivals) - started, 2) if arrivals else None,
        "latency_ms": {name: round(percentile(latencies, p), 1) if latencies else None
                       for name, p in (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))},
    }


class WebhookBench:
    def __init__(self, args):
        self.args = args
        self.api = ApiClient(args.api, args.token)
        self.receiver = Receiver(args.receiver_port)
        self.rules = 0
        self.bursts = 0
        self.local = threading.local()
        self.autovacuum = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-c", "show autovacuum"], check=True,
                                         capture_output=True, text=True).stdout.strip() == "on"

    def client(self):
        if not hasattr(self.local, "client"):
            self.local.client = ApiClient(self.args.api, self.args.token)
        return self.local.client

    def create_targets(self):
        sites = self.api.post("/api/dcim/sites/", [
            {"name": f"Webhook target {i:03d}", "slug": f"webhook-target-{i:03d}", "status": "planned"}
            for i in range(min(TARGET_SITES, self.args.deliveries))])
        self.targets = [site["id"] for site in sites]

    def add_rules(self, total):
        """Adds webhook + event rule pairs until there are `total`, then waits until the dispatcher
        has seen them (its rule cache is invalidated by their own change events)."""
        while self.rules < total:
            i = self.rules
            webhook = self.api.post("/api/extras/webhooks/", {
                "name": f"bench-webhook-{i:02d}",
                "payload_url": f"http://127.0.0.1:{self.args.receiver_port}/hook/{i:02d}"})
            self.api.post("/api/extras/event-rules/", {
                "name": f"bench-rule-{i:02d}", "object_types": ["dcim.site"], "event_types": EVENT_TYPES,
                "action_object_type": "extras.webhook", "action_object_id": webhook["id"]})
            self.rules += 1
        pipeline.wait_drained(self.args.stall_timeout, quiet=True)
        # A probe change proves the rules are live before anything is timed.
        start = self.receiver.count()
        tag = f"probe-{total}"
        self.api.patch(f"/api/dcim/sites/{self.targets[0]}/", {"description": tag})
        self.receiver.wait_for(start + total, self.args.stall_timeout)
        arrived = len(tagged(self.receiver.records(start), tag))
        if arrived != total:
            raise SystemExit(f"probe with {total} rules: {arrived} of {total} webhooks arrived")

    def burst(self):
        # a prefix of its own per burst: a change to the value a site already has is no change
        self.bursts += 1
        prefix = f"burst-{self.rules}-{self.bursts}-"
        start_count = self.receiver.count()
        # The same number of deliveries for any number of rules keeps every phase about as long.
        count = -(-self.args.deliveries // self.rules)
        expected = count * self.rules
        started = time.time()
        changes = [(self.targets[i % len(self.targets)], f"{prefix}{i}") for i in range(count)]
        chunks = [changes[i:i + min(BULK_CHUNK, len(self.targets))]
                  for i in range(0, len(changes), min(BULK_CHUNK, len(self.targets)))]
        frozen = self.freeze_dispatcher()
        try:
            for chunk in chunks:
                self.api.patch("/api/dcim/sites/", [{"id": site, "description": tag} for site, tag in chunk])
            api_seconds = time.time() - started
            if frozen:
                pipeline.wait_drained(self.args.stall_timeout, quiet=True, published_only=True)
        finally:
            if frozen:
                os.kill(frozen, signal.SIGCONT)
        self.receiver.wait_for(start_count + expected, self.args.stall_timeout)
        records = tagged(self.receiver.records(start_count), prefix)
        result = summarise(records, expected, started)
        result.update(order(records, prefix))
        result["changes"] = count
        result["api_changes_per_s"] = round(count / api_seconds, 1)
        result["backlog_before_start"] = bool(frozen)
        return result

    def settle(self):
        """Waits for an idle pipeline, then vacuums when the server does not (as bench/run's settle)."""
        pipeline.wait_drained(self.args.stall_timeout, quiet=True)
        if not self.autovacuum:
            subprocess.run(["psql", "-X", "-q", "-c", "vacuum (analyze)"], check=True,
                           env={**os.environ, "PGOPTIONS": "-c client_min_messages=error"})

    def freeze_dispatcher(self):
        """SIGSTOPs the dispatcher (when --dispatcher-pid-file is given); returns its pid or None."""
        if not self.args.dispatcher_pid_file:
            return None
        with open(self.args.dispatcher_pid_file) as f:
            pid = int(f.read().strip())
        os.kill(pid, signal.SIGSTOP)
        return pid

    def paced(self):
        prefix = f"paced-{self.rules}-"
        start_count = self.receiver.count()
        total = int(self.args.rate * self.args.paced_seconds)
        expected = total * self.rules
        started = time.time()
        late = []

        def change(i):
            due = started + i / self.args.rate
            delay = due - time.time()
            if delay > 0:
                time.sleep(delay)
            else:
                late.append(-delay)
            site = self.targets[i % len(self.targets)]
            self.client().patch(f"/api/dcim/sites/{site}/", {"description": f"{prefix}{i}"})

        with ThreadPoolExecutor(max_workers=PACED_THREADS) as pool:
            list(pool.map(change, range(total)))
        self.receiver.wait_for(start_count + expected, self.args.stall_timeout)
        records = tagged(self.receiver.records(start_count), prefix)
        result = summarise(records, expected, started)
        result.update(order(records, prefix))
        result["changes"] = total
        result["rate_changes_per_s"] = self.args.rate
        # Changes sent more than 100 ms after their slot: the API, not the dispatcher, set the pace.
        result["changes_sent_late"] = sum(1 for d in late if d > 0.1)
        return result

    def dispatcher_counts(self):
        counts = {}
        for status in ("succeeded", "failed", "queued"):
            request = urllib.request.Request(
                f"{self.args.dispatcher}/api/core/background-tasks/?status={status}&limit=1",
                headers={"Authorization": f"Token {self.args.token}", "Accept": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as response:
                counts[status] = json.load(response)["count"]
        return counts

    def run(self):
        self.create_targets()
        pipeline.wait_drained(self.args.stall_timeout, quiet=True)
        results = {"burst_deliveries": self.args.deliveries, "paced_rate": self.args.rate,
                   "paced_seconds": self.args.paced_seconds}
        for rules in self.args.rule_counts:
            print(f"    {rules} rule(s): adding rules", flush=True)
            self.add_rules(rules)
            warmups = []
            for _ in range(self.args.warmup_bursts):
                self.settle()
                warmups.append(self.burst()["deliveries_per_s"])
            if warmups:
                print(f"    {rules} rule(s): warm-up, unmeasured: {warmups} deliveries/s", flush=True)
            self.settle()
            print(f"    {rules} rule(s): burst of {-(-self.args.deliveries // rules)} changes", flush=True)
            burst = self.burst()
            burst["warmup_deliveries_per_s"] = warmups
            print(f"    {rules} rule(s): {burst['deliveries']}/{burst['expected_deliveries']} delivered,"
                  f" {burst['deliveries_per_s']} deliveries/s, {burst['inversions']} inversions,"
                  f" {burst['repeats']} repeats", flush=True)
            self.settle()
            print(f"    {rules} rule(s): paced changes, {self.args.rate}/s for {self.args.paced_seconds} s", flush=True)
            paced = self.paced()
            print(f"    {rules} rule(s): {paced['deliveries']}/{paced['expected_deliveries']} delivered,"
                  f" latency p50 {paced['latency_ms']['p50']} ms, p99 {paced['latency_ms']['p99']} ms,"
                  f" {paced['inversions']} inversions", flush=True)
            results[f"rules_{rules}"] = {"burst": burst, "paced": paced}
        results["dispatcher_task_counts"] = self.dispatcher_counts()
        return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", required=True)
    parser.add_argument("--dispatcher", required=True, help="dispatcher base URL (admin API)")
    parser.add_argument("--token", required=True)
    parser.add_argument("--receiver-port", type=int, required=True)
    parser.add_argument("--deliveries", type=int, required=True,
                        help="deliveries per burst (changes per burst = deliveries / rules)")
    parser.add_argument("--rate", type=float, default=50, help="paced changes per second")
    parser.add_argument("--paced-seconds", type=float, default=10)
    parser.add_argument("--warmup-bursts", type=int, default=1,
                        help="unmeasured bursts of the same size before each measured one")
    parser.add_argument("--rule-counts", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--stall-timeout", type=float, default=60,
                        help="stop waiting for deliveries after this long without one")
    parser.add_argument("--dispatcher-pid-file",
                        help="freeze this process while a burst's changes are made, so that it drains a backlog")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    results = WebhookBench(args).run()
    with open(args.out, "w") as out:
        json.dump(results, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
