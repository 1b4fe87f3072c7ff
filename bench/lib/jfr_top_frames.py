#!/usr/bin/env python3
"""Summarises the jdk.ExecutionSample events of a JFR recording (via `jfr print --json`):

  self       the top frame of each sample: where the CPU was when sampled
  libraries  the same, by package (three parts): which code base the CPU was in
  project    for each sample, its topmost org.sourceoftruth frame: which project method the time
             is spent under (its own code plus the library calls it makes)
  inclusive  samples in which a project method is anywhere on the stack
  threads    samples per thread name (digits collapsed), to see where the work happens
"""

import argparse
import collections
import json
import re
import subprocess
import sys

PROJECT = "org.sourceoftruth."


def frame_name(frame):
    method = frame["method"]
    # jfr prints internal class names (a/b/C); hidden classes carry a /0x... suffix
    return f'{method["type"]["name"].replace("/", ".")}.{method["name"]}'


def library(name):
    """The code base a frame belongs to: its package, cut to three parts (e.g. com.fasterxml.jackson)."""
    return ".".join(name.split(".")[:3])


def load_samples(recording, stack_depth):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", str(stack_depth),
                          "--events", "jdk.ExecutionSample", recording],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    samples = []
    for event in events:
        values = event["values"]
        frames = [frame_name(f) for f in (values.get("stackTrace") or {}).get("frames", [])]
        thread = (values.get("sampledThread") or {}).get("javaName") or "?"
        if frames:
            samples.append((re.sub(r"\d+", "N", thread), frames))
    return samples


def top(counter, total, n):
    return [{"frame": name, "samples": count, "percent": round(100 * count / total, 1)}
            for name, count in counter.most_common(n)]


def summarise(samples, n):
    self_time, libraries, project, inclusive, threads = (collections.Counter() for _ in range(5))
    for thread, frames in samples:
        threads[thread] += 1
        self_time[frames[0]] += 1
        libraries[library(frames[0])] += 1
        project_frames = [f for f in frames if f.startswith(PROJECT)]
        project[project_frames[0] if project_frames else "(no project frame)"] += 1
        for name in set(project_frames):
            inclusive[name] += 1
    total = len(samples) or 1
    return {"samples": len(samples), "self": top(self_time, total, n), "libraries": top(libraries, total, 12),
            "project": top(project, total, n),
            "inclusive": top(inclusive, total, n), "threads": top(threads, total, 8)}


def print_summary(summary):
    print(f"    {summary['samples']} execution samples")
    for section in ("self", "libraries", "project", "inclusive", "threads"):
        print(f"    -- {section}")
        for row in summary[section]:
            print(f"    {row['percent']:5.1f}%  {row['samples']:6d}  {row['frame']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("recording")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--stack-depth", type=int, default=96)
    parser.add_argument("--threads", default=None,
                        help="only samples of threads whose name contains this (e.g. executor-thread)")
    parser.add_argument("--out", help="write the summary as JSON here")
    args = parser.parse_args()
    samples = load_samples(args.recording, args.stack_depth)
    if args.threads:
        samples = [s for s in samples if args.threads in s[0]]
    summary = summarise(samples, args.top)
    print_summary(summary)
    if args.out:
        with open(args.out, "w") as out:
            json.dump(summary, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
