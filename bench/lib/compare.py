#!/usr/bin/env python3
"""Prints two bench/run results side by side as bench/README.md's Markdown table: every figure of the
first (after), the same figure of the second (before), its target and whether the first meets it.

usage: bench/lib/compare.py AFTER.json BEFORE.json [--after-label L] [--before-label L]
"""

import argparse
import json


def cell(figure):
    """A figure as the table shows it: value and unit, then p50 (single-write tests) and p99."""
    if figure is None:
        return "-"
    text = f"{figure['value']} {figure['unit']}"
    if figure["figure"].startswith("POST /api/dcim/sites/") and figure["figure"].endswith("@1"):
        text += f", p50 {figure['p50_ms']:.1f} ms"
    if figure.get("p99_ms") not in (None, "-", ""):
        text += f", p99 {float(figure['p99_ms']):.1f} ms"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("after")
    parser.add_argument("before")
    parser.add_argument("--after-label", default="after")
    parser.add_argument("--before-label", default="before")
    args = parser.parse_args()
    after = json.load(open(args.after))["figures"]
    before = {f["figure"]: f for f in json.load(open(args.before))["figures"]}
    print(f"| figure | {args.after_label} | {args.before_label} | target | met |")
    print("|---|---|---|---|---|")
    for figure in after:
        print(f"| {figure['figure']} | {cell(figure)} | {cell(before.get(figure['figure']))}"
              f" | {figure['target'] or '-'} | {figure['met']} |")


if __name__ == "__main__":
    main()
