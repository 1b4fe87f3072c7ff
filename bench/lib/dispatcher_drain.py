#!/usr/bin/env python3
"""How fast does one dispatcher drain a backlog, and at what CPU cost per delivery?

Against a running stack: creates a webhook and 20 event rules that all match new sites, then per
drain stops the dispatcher (SIGSTOP), creates sites at --rate for --seconds (each gives 20
deliveries), resumes it and times until every delivery has arrived at a local receiver. Prints
deliveries/s and the dispatcher's CPU seconds per delivery (/proc). The first drain runs on a cold
JIT; compare the later ones. Optionally records the last drain with JFR (--jfr FILE; summarise with
jfr_top_frames.py).

  python3 bench/lib/dispatcher_drain.py --token T --dispatcher-pid P [--drains 4] [--jfr out.jfr]
"""

import argparse
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules_latency import RULES, Bench, cpu_seconds, start_receiver  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", default="http://127.0.0.1:8080")
    parser.add_argument("--token", required=True)
    parser.add_argument("--dispatcher-pid", type=int, required=True)
    parser.add_argument("--receiver-port", type=int, default=8190)
    parser.add_argument("--rate", type=float, default=100, help="site creations per second while stopped")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--drains", type=int, default=4)
    parser.add_argument("--stall-timeout", type=float, default=60)
    parser.add_argument("--jfr", help="record the last drain with JFR into this file")
    args = parser.parse_args()
    args.cpu_of = []

    receiver = start_receiver(args.receiver_port)
    bench = Bench(args)
    pid = args.dispatcher_pid
    try:
        bench.create_rules()
        bench.set_rules(True)
        for drain in range(args.drains):
            before = bench.receiver.count()
            os.kill(pid, signal.SIGSTOP)
            try:
                latencies, _ = bench.paced_creates(f"drain{drain}")
            finally:
                os.kill(pid, signal.SIGCONT)
            started, cpu_before = time.monotonic(), cpu_seconds([pid])[pid]
            recording = args.jfr and drain == args.drains - 1
            if recording:  # after SIGCONT: jcmd cannot attach to a stopped process
                subprocess.run(["jcmd", str(pid), "JFR.start", "name=drain", f"filename={args.jfr}",
                                "settings=profile"], check=True, capture_output=True)
            deliveries = RULES * len(latencies)
            bench.wait_deliveries(before + deliveries)
            seconds = time.monotonic() - started
            cpu = cpu_seconds([pid])[pid] - cpu_before
            if recording:
                subprocess.run(["jcmd", str(pid), "JFR.stop", "name=drain"], check=True, capture_output=True)
            print(f"drain {drain}: {deliveries} deliveries in {seconds:.1f} s = {deliveries / seconds:.0f}/s, "
                  f"dispatcher CPU {cpu:.1f} s = {cpu / deliveries * 1000:.2f} ms per delivery", flush=True)
    finally:
        os.kill(pid, signal.SIGCONT)
        bench.delete_rules()
        receiver.terminate()


if __name__ == "__main__":
    main()
