#!/usr/bin/env python3
"""Where the YAML path's instructions go, phase by phase, from a callgrind
profile of `examples/repeat.rs`'s `yaml` contender:

    valgrind --tool=callgrind --callgrind-out-file=OUT \\
        target/profiling/examples/repeat benches/data/twitter.yaml yaml 3
    python3 tools/yaml_phases.py OUT 3

Reads `callgrind_annotate`'s self cost per (file, function) and puts each
line in a phase: by the source file the instructions come from (code
inlined into another function counts where it was written: scanner code
inlined into the parser is scanner work), and for the standard library's
and unnamed files by the function they ran in. The phases: scanner
(bytes to tokens, `src/scan/yaml/scanner.rs`, `scanner/` and `chars.rs` with the
searches it calls in `src/swar`, the UTF-8 check), parser (tokens to syntax events), load (syntax events to the
item list: `load.rs`, `Loader`), resolve (plain scalars under the
schema, keys: `src/scan/resolve/`), attach (comments and blank lines),
cursor (the items read back as data events: the reader's window and held
maps, `stream.rs`), write (the driver loop, the plan,
the emitter), libc (memcpy, malloc, realloc, free: called from any of
them) and other (start-up, reading the file, the rest). Prints instructions per
conversion (the profile's counts divided by N) and shares of the total.

EVENT (default Ir) counts another event of a profile that has it:
`valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes` records D1mr
and D1mw (first-level data misses, read and write), DLmr and DLmw (last
level), Bcm and Bim (conditional and indirect branches mispredicted).
"""

import re
import subprocess
import sys
from collections import defaultdict

LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+?):(.*?)(?: \[[^\]]*\])?$")
LIBC = ("memcpy", "memmove", "memset", "malloc", "realloc", "free", "_int_", "cfree", "memcmp",
        "__rdl_", "__rust_alloc", "__rust_dealloc", "__rust_realloc")

BY_FUNCTION = [
    ("scanner", ("scan::yaml::scanner::", "scan::yaml::chars::")),
    ("parser", ("scan::yaml::parser::",)),
    ("cursor", ("yaml::cursor::", "yaml::stream::")),
    ("load", ("scan::yaml::load::",)),
    ("resolve", ("scan::resolve::",)),
    ("attach", ("scan::yaml::attach::",)),
    ("write", ("kyaml::emit::", "kyaml::plan::", "kyaml::encode::", "kyaml::stream::",
               "kyaml::scan::text::")),
]
SCANNER_SEARCHES = ("plain_stop", "skip_quiet_blocks", "block_line", "yaml_special")
ORDER = ["scanner", "parser", "load", "resolve", "attach", "cursor", "write", "libc", "other"]


def phase(path, function):
    if any(name in function for name in LIBC):
        return "libc"
    # Files whose code belongs to one phase wherever it was inlined; the
    # helpers (src/swar, scalar.rs's decoding, text.rs) count where they ran.
    if "src/scan/yaml/scanner" in path or "src/scan/yaml/chars.rs" in path:
        return "scanner"
    # The word-at-a-time searches only the scanner's `chars.rs` calls.
    if "swar::" in function and any(name in function for name in SCANNER_SEARCHES):
        return "scanner"
    if "src/scan/yaml/parser.rs" in path:
        return "parser"
    if "src/scan/resolve" in path:
        return "resolve"
    if "src/scan/yaml/load.rs" in path:
        return "load"
    if "src/scan/yaml/stream.rs" in path:
        return "cursor"
    if "src/scan/yaml/attach.rs" in path:
        return "attach"
    if "src/emit/" in path or "src/plan/" in path or "src/encode.rs" in path:
        return "write"
    if "from_utf8" in function:
        return "scanner"
    for name, marks in BY_FUNCTION:
        if any(mark in function for mark in marks):
            return name
    return "other"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: yaml_phases.py CALLGRIND_OUT CONVERSIONS [EVENT]")
    out, conversions = sys.argv[1], int(sys.argv[2])
    event = sys.argv[3] if len(sys.argv) == 4 else "Ir"
    text = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no",
                           f"--show={event}", f"--sort={event}", out],
                          check=True, capture_output=True, text=True).stdout
    totals = defaultdict(int)
    top = defaultdict(list)
    program = 0
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            program = int(line.split()[0].replace(",", ""))
            continue
        m = LINE.match(line)
        if not m:
            continue
        cost, path, function = int(m.group(1).replace(",", "")), m.group(2), m.group(3)
        p = phase(path, function)
        totals[p] += cost
        top[p].append((cost, path.rsplit("/", 1)[-1], function.rsplit("::", 1)[-1]))
    counted = sum(totals.values())
    what = "instructions" if event == "Ir" else event
    print(f"{out}: {program:,} {what} in all ({counted:,} attributed), {conversions} conversions\n")
    print(f"| phase | {what} per conversion | share | largest parts (self cost, per conversion) |")
    print("|---|---:|---:|---|")
    for p in ORDER:
        parts = sorted(top[p], reverse=True)[:4]
        named = "; ".join(f"`{function}` ({path}) {c / conversions / 1e6:.2f} M"
                          for c, path, function in parts)
        print(f"| {p} | {totals[p] / conversions / 1e6:.2f} M | {100 * totals[p] / counted:.1f}% | {named} |")


if __name__ == "__main__":
    main()
