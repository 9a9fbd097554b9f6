#!/usr/bin/env python3
"""The YAML row of issues 24 and 33 in one table: kyaml's YAML -> KYAML
against saphyr-parser's events (Rust), rapidyaml's conversion (C++: parse,
aliases and merges resolved, `emit_json`; like for like) and rapidyaml's
bare parse, on the seven bench files (benches/data/*.yaml: the four
block-style ones, `kubectl_pods`, the shape of `kubectl get pods -A -o
yaml`, `compose`, a docker-compose file with anchors and a merge in
every service, and `compose_written_out`, its data with the merges
written out, whose KYAML is the same: the two rows part the merges' cost
from the rest; all by `tools/make_big_yaml.py --pods 700 --compose 2500
--written-out`):

    python3 tools/bench_yaml.py [--rounds N] [--passes P] [--check]

Builds and runs benches/yaml-parsers (kyaml and saphyr-parser in one
process, alternating round by round) and tools/bench_rapidyaml.py in
turn, P passes of N/P rounds each, the order of the two processes
swapping each pass, so that a busy minute on a shared machine falls on
all three contenders. Medians over all rounds, MB/s of input, and the
ratios (> 1: kyaml faster) against the issue's targets: kyaml/rapidyaml
conversion >= 1.0 and kyaml/saphyr >= 1.5 on every file (kyaml/rapidyaml's
bare parse is shown, with no target). `--check` exits 1 when a
target is missed. Without rapidyaml (`import ryml` fails; `pip install
rapidyaml`) its columns are left out, with a note.

Three more kyaml contenders read without writing (benches/yaml-parsers'
module docs): `kyaml-syntax` (scanner and parser, the events dropped:
like-for-like with the two parsers), `kyaml-load` (and the reader that
makes data of them, as to_string reads) and `kyaml-check` (and the
checking pass: all but the writing). A second table gives each against
rapidyaml and saphyr-parser; the targets stay on the first.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
from collections import defaultdict
from datetime import datetime, timezone

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MANIFEST = os.path.join(ROOT, "benches", "yaml-parsers", "Cargo.toml")
BINARY = os.path.join(ROOT, "benches", "yaml-parsers", "target", "release", "yaml-parsers-bench")
RAPIDYAML = [sys.executable, os.path.join(ROOT, "tools", "bench_rapidyaml.py")]
FILES = ["twitter", "citm_catalog", "canada", "k8s_swagger", "kubectl_pods", "compose",
         "compose_written_out"]
TARGETS = {"saphyr": 1.5, "rapidyaml-json": 1.0}
# The kyaml contenders that write nothing, and their columns' names.
READERS = {"kyaml-syntax": "kyaml syntax events", "kyaml-load": "kyaml load",
           "kyaml-check": "kyaml check"}


def raw_times(argv, into):
    """Runs a `--raw` contender and adds its `FILE CONTENDER SECONDS` lines
    to into[(file, contender)]."""
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        name, contender, seconds = line.split()
        into[(name, contender)].append(float(seconds))


def machine_line():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"{model}, {os.cpu_count()} cores, load average {load}; {date}; {rustc}; Python {platform.python_version()}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=21, help="rounds per contender and file, in all")
    ap.add_argument("--passes", type=int, default=7, help="runs of each process, alternating")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    per_pass = max(1, -(-args.rounds // args.passes))

    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path", MANIFEST], check=True)
    ryml_note = None
    probe = subprocess.run([sys.executable, "-c", "import ryml; print(ryml.__version__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        ryml_note = "rapidyaml skipped: `import ryml` failed (pip install rapidyaml)"
    ryml_version = probe.stdout.strip()

    rust = [BINARY, "--raw", "--rounds", str(per_pass)]
    python = RAPIDYAML + ["--raw", "--rounds", str(per_pass)]
    times = defaultdict(list)
    for p in range(args.passes):
        order = [rust, python] if p % 2 == 0 else [python, rust]
        for argv in order:
            if argv is python and ryml_note:
                continue
            raw_times(argv, times)

    contenders = ["kyaml", "saphyr"] + ([] if ryml_note else ["rapidyaml-json", "rapidyaml"])
    print(machine_line())
    print(f"{args.passes} passes x {per_pass} rounds = {args.passes * per_pass} timings per contender and file, medians"
          + ("" if ryml_note else f"; rapidyaml {ryml_version}"))
    print()
    head = "| file | MB | kyaml YAML → KYAML MB/s | saphyr-parser events MB/s |"
    rule = "|---|---:|---:|---:|"
    if not ryml_note:
        head += " rapidyaml parse + emit_json MB/s | rapidyaml parse_in_arena MB/s |"
        rule += "---:|---:|"
    head += " kyaml/saphyr (≥ 1.5) |"
    rule += "---:|"
    if not ryml_note:
        head += " kyaml/rapidyaml conversion (≥ 1.0) | kyaml/rapidyaml parse |"
        rule += "---:|---:|"
    print(head)
    print(rule)
    missed = []
    medians = {}
    for name in FILES:
        mb = os.path.getsize(os.path.join(ROOT, "benches", "data", name + ".yaml")) / 1e6
        median = {c: statistics.median(times[(name, c)]) for c in contenders + list(READERS)}
        medians[name] = (mb, median)
        row = f"| {name} | {mb:.2f} |" + "".join(f" {mb / median[c]:.0f} |" for c in contenders)
        for other in contenders[1:]:
            ratio = median[other] / median["kyaml"]
            row += f" {ratio:.2f} |"
            if other in TARGETS and ratio < TARGETS[other]:
                missed.append(f"{name}: kyaml/{other} {ratio:.2f} < {TARGETS[other]}")
        print(row)
    print("\nkyaml reading without writing (like-for-like with a parse only):\n")
    others = contenders[1:]
    print("| file |" + "".join(f" {READERS[r]} MB/s |" for r in READERS)
          + "".join(f" {r.removeprefix('kyaml-')}/{o} |" for r in READERS for o in others))
    print("|---|" + "---:|" * (len(READERS) * (1 + len(others))))
    for name in FILES:
        mb, median = medians[name]
        print(f"| {name} |" + "".join(f" {mb / median[r]:.0f} |" for r in READERS)
              + "".join(f" {median[o] / median[r]:.2f} |" for r in READERS for o in others))
    if ryml_note:
        print(f"\n{ryml_note}")
    if missed:
        print("\ntargets missed:\n  " + "\n  ".join(missed))
        if args.check:
            sys.exit(1)


if __name__ == "__main__":
    main()
