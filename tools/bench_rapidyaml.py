#!/usr/bin/env python3
"""rapidyaml's parse of the block-style bench files, the C++ columns of
the YAML row (issues 24 and 33):

    python3 tools/bench_rapidyaml.py [--rounds N] [--raw] [--file NAME] [--only rapidyaml|rapidyaml-json]

Times `ryml.parse_in_arena(bytes)` (PyPI `rapidyaml`: the C++ parser
through its Python binding; the input is copied into the tree's arena and
parsed into the tree there), each timing including the tree's release, as
kyaml's timing includes dropping its output. The Python call costs a few
microseconds against milliseconds of parsing. One untimed call per file
first; the garbage collector is off while timing.

A second contender, `rapidyaml-json`, converts as kyaml does (like for
like): `parse_in_arena`, `Tree.resolve()` (aliases and merge keys
expanded, as kyaml expands them), then `emit_json_malloc` of the root
into a Python `str`, as kyaml's timing makes a `String`.

Prints MB/s of input, medians of N rounds; `--raw` prints every timing
(`FILE rapidyaml SECONDS`, `FILE rapidyaml-json SECONDS`) for tools/bench_yaml.py, which runs this beside
the Rust contenders and prints the ratios. Exits 3 when `import ryml`
fails (`pip install rapidyaml`). `--file NAME` runs one file only and
`--only` one contender (for callgrind: tools/bench_yaml_instructions.sh).
"""

import argparse
import gc
import os
import statistics
import sys
import time

FILES = ["twitter", "citm_catalog", "canada", "k8s_swagger", "kubectl_pods", "compose",
         "compose_written_out"]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benches", "data")


def parse(ryml, data):
    """The bare parse, tree released."""
    tree = ryml.parse_in_arena(data)
    del tree


def convert(ryml, data):
    """Parse, aliases and merges resolved, JSON emitted into a `str`."""
    tree = ryml.parse_in_arena(data)
    tree.resolve()
    out = ryml.emit_json_malloc(tree, tree.root_id())
    del tree
    return out


def timings(ryml, data, rounds, only=None):
    """Seconds of each of `rounds` runs of each contender on `data`, the
    two alternating: {contender: [seconds]}."""
    runs = {"rapidyaml": parse, "rapidyaml-json": convert}
    if only:
        runs = {only: runs[only]}
    for run in runs.values():
        run(ryml, data)  # untimed: page in, warm the allocator
    times = {name: [] for name in runs}
    gc.disable()
    try:
        for _ in range(rounds):
            for name, run in runs.items():
                start = time.perf_counter()
                run(ryml, data)
                times[name].append(time.perf_counter() - start)
    finally:
        gc.enable()
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("--file", choices=FILES)
    ap.add_argument("--only", choices=["rapidyaml", "rapidyaml-json"])
    args = ap.parse_args()
    try:
        import ryml
    except ImportError as e:
        print(f"rapidyaml not available ({e}): pip install rapidyaml", file=sys.stderr)
        sys.exit(3)
    if not args.raw:
        print(f"rapidyaml {getattr(ryml, '__version__', '?')}, {args.rounds} rounds, medians\n")
        names = [args.only] if args.only else ["rapidyaml parse_in_arena", "rapidyaml parse + emit_json"]
        print("| file | MB |" + "".join(f" {n} MB/s |" for n in names))
        print("|---|---:|" + "---:|" * len(names))
    for name in [args.file] if args.file else FILES:
        with open(os.path.join(DATA, name + ".yaml"), "rb") as f:
            data = f.read()
        times = timings(ryml, data, args.rounds, args.only)
        if args.raw:
            for who, ts in times.items():
                for t in ts:
                    print(f"{name} {who} {t:.9f}")
        else:
            mb = len(data) / 1e6
            print(f"| {name} | {mb:.2f} |"
                  + "".join(f" {mb / statistics.median(ts):.0f} |" for ts in times.values()))


if __name__ == "__main__":
    main()
