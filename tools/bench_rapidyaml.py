#!/usr/bin/env python3
"""rapidyaml's parse of the four block-style bench files, the C++ column of
the YAML row (issue 24):

    python3 tools/bench_rapidyaml.py [--rounds N] [--raw] [--file NAME]

Times `ryml.parse_in_arena(bytes)` (PyPI `rapidyaml`: the C++ parser
through its Python binding; the input is copied into the tree's arena and
parsed into the tree there), each timing including the tree's release, as
kyaml's timing includes dropping its output. The Python call costs a few
microseconds against milliseconds of parsing. One untimed call per file
first; the garbage collector is off while timing.

Prints MB/s of input, medians of N rounds; `--raw` prints every timing
(`FILE rapidyaml SECONDS`) for tools/bench_yaml.py, which runs this beside
the Rust contenders and prints the ratios. Exits 3 when `import ryml`
fails (`pip install rapidyaml`). `--file NAME` runs one file only (for
callgrind: tools/bench_yaml_instructions.sh).
"""

import argparse
import gc
import os
import statistics
import sys
import time

FILES = ["twitter", "citm_catalog", "canada", "k8s_swagger"]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benches", "data")


def timings(ryml, data, rounds):
    """Seconds of each of `rounds` parses of `data`, tree released."""
    tree = ryml.parse_in_arena(data)  # untimed: page in, warm the allocator
    del tree
    times = []
    gc.disable()
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            tree = ryml.parse_in_arena(data)
            del tree
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("--file", choices=FILES)
    args = ap.parse_args()
    try:
        import ryml
    except ImportError as e:
        print(f"rapidyaml not available ({e}): pip install rapidyaml", file=sys.stderr)
        sys.exit(3)
    if not args.raw:
        print(f"rapidyaml {getattr(ryml, '__version__', '?')}, {args.rounds} rounds, medians\n")
        print("| file | MB | rapidyaml parse_in_arena MB/s |")
        print("|---|---:|---:|")
    for name in [args.file] if args.file else FILES:
        with open(os.path.join(DATA, name + ".yaml"), "rb") as f:
            data = f.read()
        times = timings(ryml, data, args.rounds)
        if args.raw:
            for t in times:
                print(f"{name} rapidyaml {t:.9f}")
        else:
            mb = len(data) / 1e6
            print(f"| {name} | {mb:.2f} | {mb / statistics.median(times):.0f} |")


if __name__ == "__main__":
    main()
