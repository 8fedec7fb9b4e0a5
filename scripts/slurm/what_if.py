#!/usr/bin/env python3
"""What moved between two runs of the same jobs (two `--jobs-csv` files):
how many jobs start earlier, later or at the same time, and the mean wait
by category (narrow: at most 8 processors; short: a limit of at most an
hour), before and after.

    what_if.py BEFORE.csv AFTER.csv
"""
import csv
import sys
from collections import defaultdict


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = ({r["job"]: r for r in csv.DictReader(open(p))} for p in sys.argv[1:])
    if set(a) != set(b):
        sys.exit("the two runs do not hold the same jobs")
    moved = {"earlier": 0, "later": 0, "at the same time": 0}
    cats = defaultdict(lambda: [0, 0, 0])
    for j, r in a.items():
        before, after = int(r["wait"]), int(b[j]["wait"])
        moved["earlier" if after < before else "later" if after > before else "at the same time"] += 1
        c = ("narrow" if int(r["size"]) <= 8 else "wide") + ", " + ("short" if int(r["estimate"]) <= 3600 else "long")
        cats[c][0] += 1
        cats[c][1] += before
        cats[c][2] += after
    print(f"{len(a)} jobs: " + ", ".join(f"{n} start {k}" for k, n in moved.items()))
    print()
    print("| jobs | count | mean wait before | mean wait after |")
    print("|---|---:|---:|---:|")
    for c, (n, wa, wb) in sorted(cats.items()):
        print(f"| {c} | {n} | {wa / n:,.0f} s | {wb / n:,.0f} s |")
    n = len(a)
    print(f"| all | {n} | {sum(v[1] for v in cats.values()) / n:,.0f} s | {sum(v[2] for v in cats.values()) / n:,.0f} s |")


if __name__ == "__main__":
    main()
