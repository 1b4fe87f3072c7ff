#!/usr/bin/env python3
"""Does a write wait for its webhooks? Latency of single site creations at a fixed offered rate,
with no event rule and with 20 rules that all match every new site and deliver to a local
receiver; optionally a third phase with the 20 rules and the dispatcher stopped (SIGSTOP).

Why a fixed rate and not a saturating load: at saturation every CPU cycle the dispatcher spends
on 20 deliveries per write is taken from the API on a shared machine, so the figure measures
CPU sharing, not waiting. At a fixed rate (open loop: request i is sent at start + i / rate,
whatever happened to the ones before) the latency shows whether the request path itself does
more work or waits when rules match. The phases alternate over rounds, the order flipping every
round, and before each phase every delivery of the phase before has arrived, so no phase runs
over another's backlog. The spread of a phase over rounds is the noise the difference between
phases is compared with.

Standard library only; run through bench/rules-latency.
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_client import ApiClient  # noqa: E402
from stats import percentile  # noqa: E402
from webhook_bench import Receiver  # noqa: E402

RULES = 20
LOAD_THREADS = 16
LATE_MS = 10
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids):
    """User + system CPU seconds used so far by each process (0 for one that is gone)."""
    used = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            used[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        except (OSError, IndexError):
            used[pid] = 0.0
    return used


def processes_named(command):
    """Pids whose command name is `command` (e.g. all PostgreSQL backends)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() == command:
                        pids.append(int(entry))
            except OSError:
                pass
    return pids  # a request sent this much after its slot means the client, not the server, set the pace


class Bench:
    def __init__(self, args):
        self.args = args
        self.local = threading.local()
        self.receiver = Receiver(args.receiver_port)
        self.run_id = f"rl{int(time.time())}"
        self.hook = None
        self.rules = []

    def client(self):
        if not hasattr(self.local, "client"):
            self.local.client = ApiClient(self.args.api, self.args.token)
        return self.local.client

    def create_rules(self):
        _, hook = self.client().request("POST", "/api/extras/webhooks/", {
            "name": self.run_id, "payload_url": f"http://127.0.0.1:{self.args.receiver_port}/hook"})
        self.hook = hook["id"]
        for i in range(RULES):
            _, rule = self.client().request("POST", "/api/extras/event-rules/", {
                "name": f"{self.run_id}-{i}", "enabled": False, "object_types": ["dcim.site"],
                "event_types": ["object_created"], "action_object_type": "extras.webhook",
                "action_object_id": self.hook})
            self.rules.append(rule["id"])

    def delete_rules(self):
        for rule in self.rules:
            self.client().request("DELETE", f"/api/extras/event-rules/{rule}/", expect=(204, 404))
        if self.hook:
            self.client().request("DELETE", f"/api/extras/webhooks/{self.hook}/", expect=(204, 404))

    def set_rules(self, enabled):
        # One bulk PATCH: the dispatcher sees the rules change through their own change events.
        self.client().request("PATCH", "/api/extras/event-rules/",
                              [{"id": r, "enabled": enabled} for r in self.rules])
        time.sleep(2)

    def paced_creates(self, label):
        """POSTs rate x seconds sites at a fixed rate; returns (service latencies in ms, late sends)."""
        rate, total = self.args.rate, int(self.args.rate * self.args.seconds)
        prefix = f"{self.run_id}-{label}-{time.time_ns()}"
        latencies, late = [None] * total, []
        started = time.monotonic() + 0.1

        def create(i):
            delay = started + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            elif -delay * 1000 > LATE_MS:
                late.append(i)
            name = f"{prefix}-{i}"
            sent = time.monotonic()
            self.client().request("POST", "/api/dcim/sites/", {"name": name, "slug": name, "status": "planned"},
                                  expect=(201,))
            latencies[i] = (time.monotonic() - sent) * 1000

        with ThreadPoolExecutor(max_workers=LOAD_THREADS) as pool:
            list(pool.map(create, range(total)))
        return latencies, len(late)

    def wait_deliveries(self, expected):
        """Waits until the receiver has `expected` deliveries in all; fails when they stop coming."""
        got = self.receiver.wait_for(expected, self.args.stall_timeout)
        if got != expected:
            raise SystemExit(f"expected {expected} deliveries at the receiver, got {got}")

    def watched_pids(self):
        """name -> pids whose CPU use each phase reports (--cpu-of, PostgreSQL, this process)."""
        watched = {name: [pid] for name, pid in self.args.cpu_of}
        watched["postgres"] = processes_named("postgres")
        watched["load generator"] = [os.getpid()]
        return watched

    def phase(self, label, rules_on, dispatcher_stopped=False):
        before = self.receiver.count()
        watched = self.watched_pids()
        cpu_before = cpu_seconds([p for pids in watched.values() for p in pids])
        wall_before = time.monotonic()
        if dispatcher_stopped:
            os.kill(self.args.dispatcher_pid, signal.SIGSTOP)
        try:
            latencies, late = self.paced_creates(label.replace(" ", "").replace(",", ""))
        finally:
            if dispatcher_stopped:
                os.kill(self.args.dispatcher_pid, signal.SIGCONT)
        expected = before + (RULES * len(latencies) if rules_on else 0)
        drain_started = time.monotonic()
        self.wait_deliveries(expected)
        if not rules_on:
            time.sleep(2)  # a stale rule cache would deliver now
            self.wait_deliveries(expected)
        drained = time.monotonic() - drain_started
        # CPU per process over the phase and its drain, as a share of one CPU over the phase's length
        cpu_after = cpu_seconds(cpu_before)
        wall = time.monotonic() - wall_before
        cpu = {name: sum(cpu_after[p] - cpu_before[p] for p in pids) / wall for name, pids in watched.items()}
        return {"p50": percentile(latencies, 50), "p90": percentile(latencies, 90),
                "p99": percentile(latencies, 99), "max": max(latencies), "requests": len(latencies),
                "late": late, "drain_s": drained, "load": os.getloadavg()[0], "cpu": cpu}

    def run(self):
        phases = [("0 rules", False, False), ("20 rules", True, False)]
        if self.args.dispatcher_pid:
            phases.append(("20 rules, dispatcher off", True, True))
        results = {label: [] for label, _, _ in phases}
        print(f"POST /api/dcim/sites/ at {self.args.rate}/s for {self.args.seconds} s per phase, "
              f"{self.args.rounds} rounds, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}", flush=True)
        self.create_rules()
        rules_enabled = None
        try:
            # Unmeasured: the JIT compiles the request path and the dispatcher's matching, rendering
            # and sending code, which would otherwise land on whichever phase runs first.
            for label, rules_on, _ in phases[:2]:
                self.set_rules(rules_on)
                rules_enabled = rules_on
                self.phase(f"warmup {label}", rules_on)
            print("  (warm-up done)", flush=True)
            for round_no in range(1, self.args.rounds + 1):
                order = phases if round_no % 2 else list(reversed(phases))
                for label, rules_on, stopped in order:
                    if rules_enabled != rules_on:
                        self.set_rules(rules_on)
                        rules_enabled = rules_on
                    r = self.phase(label, rules_on, stopped)
                    results[label].append(r)
                    print(f"  round {round_no}  {label:<26} p50 {r['p50']:6.2f} ms  p90 {r['p90']:6.2f}  "
                          f"p99 {r['p99']:6.2f}  max {r['max']:7.2f}  late sends {r['late']:3d}  "
                          f"drained in {r['drain_s']:4.1f} s", flush=True)
                    print("           CPU (share of one core, phase + drain): " + ", ".join(
                        f"{name} {share:.2f}" for name, share in r["cpu"].items()), flush=True)
        finally:
            self.delete_rules()
        return results


def start_receiver(port):
    """Starts webhook_receiver.py on 127.0.0.1:port and waits until it answers; returns the process."""
    receiver = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "webhook_receiver.py"), "--port", str(port)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            Receiver(port).count()
            return receiver
        except OSError:
            if time.monotonic() > deadline or receiver.poll() is not None:
                receiver.terminate()
                raise SystemExit("the webhook receiver did not start")
            time.sleep(0.1)


def summarise(results):
    print("medians over rounds (min-max of the rounds), ms:")
    summary = {}
    for label, runs in results.items():
        row = {}
        for key in ("p50", "p90", "p99"):
            values = [r[key] for r in runs]
            row[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
        summary[label] = row
        print(f"  {label:<26} " + "  ".join(
            f"{k} {v['median']:6.2f} ({v['min']:.2f}-{v['max']:.2f})" for k, v in row.items()))
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", default="http://127.0.0.1:8080")
    parser.add_argument("--token", required=True)
    parser.add_argument("--receiver-port", type=int, default=8190)
    parser.add_argument("--rate", type=float, default=20, help="site creations per second")
    parser.add_argument("--seconds", type=float, default=20, help="length of each phase")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dispatcher-pid", type=int, help="adds a phase with the dispatcher SIGSTOPped")
    parser.add_argument("--stall-timeout", type=float, default=60,
                        help="give up when no delivery arrives for this long")
    parser.add_argument("--cpu-of", action="append", default=[], type=lambda v: (v.split("=")[0], int(v.split("=")[1])),
                        metavar="NAME=PID", help="also report this process's CPU use per phase (repeatable)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()

    receiver = start_receiver(args.receiver_port)
    try:
        args.cpu_of.append(("receiver", receiver.pid))
        results = Bench(args).run()
        summary = summarise(results)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"rate": args.rate, "seconds": args.seconds, "rounds": results, "summary": summary,
                           "cpus": os.cpu_count()}, f, indent=2)
    finally:
        receiver.terminate()


if __name__ == "__main__":
    main()
