#!/usr/bin/env python3
"""Peak resident memory of the kyaml CLI on one input, from a file and from
a pipe, against the limit of the performance issue: input size + 2 MiB.

    python3 tools/rss.py BINARY INPUT [--runs N] [--check]

Each run is one process under GNU time (`/usr/bin/time -f %M`, Debian
package `time`), as the issue measures it: the peak RSS of the tool alone,
in KiB. (Python cannot measure it itself: a child forked from it inherits
its resident size as a floor for ru_maxrss.) Prints the range over the runs
and exits 1 with --check if any run is over the limit.
"""

import argparse
import os
import shutil
import subprocess
import sys


def peak_kib(argv, pipe_from=None):
    """Runs argv under GNU time with stdout discarded, its stdin empty or
    fed by `cat pipe_from`; returns the tool's peak RSS in KiB."""
    feeder = None
    stdin = subprocess.DEVNULL
    if pipe_from:
        feeder = subprocess.Popen(["cat", pipe_from], stdout=subprocess.PIPE)
        stdin = feeder.stdout
    timed = ["/usr/bin/time", "-f", "%M"] + argv
    child = subprocess.Popen(
        timed, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    if feeder:
        feeder.stdout.close()
    _, err = child.communicate()
    if feeder:
        feeder.wait()
    if child.returncode != 0:
        sys.exit(f"{argv} failed with {child.returncode}: {err.decode()}")
    return int(err.decode().split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("input")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not shutil.which("/usr/bin/time"):
        sys.exit("needs GNU time: apt-get install time")

    size_kib = os.path.getsize(args.input) / 1024
    limit = size_kib + 2048
    kinds = {
        "file": lambda: peak_kib([args.binary, args.input]),
        # From a pipe the tool cannot learn the size up front.
        "pipe": lambda: peak_kib([args.binary], pipe_from=args.input),
        "empty input": lambda: peak_kib([args.binary]),
    }
    over = False
    print(f"{args.input}: {size_kib:,.0f} KiB; limit input + 2 MiB = {limit:,.0f} KiB")
    for name, run in kinds.items():
        peaks = [run() for _ in range(args.runs)]
        bad = name != "empty input" and max(peaks) > limit
        over |= bad
        verdict = "OVER" if bad else "ok"
        print(f"  {name:12} peak RSS {min(peaks):,}-{max(peaks):,} KiB  {verdict}")
    if over and args.check:
        sys.exit(1)


if __name__ == "__main__":
    main()
