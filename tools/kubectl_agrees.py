#!/usr/bin/env python3
"""Asks the real kubectl whether `kyaml fmt` kept what it reads.

    tools/kubectl_agrees.py KYAML_BINARY DIR [DIR...]

For every `.yaml`/`.yml` file under each DIR, runs
`kubectl label --local -f FILE probe=1 -o json` on the file as it is and
on `kyaml fmt`'s output of it (in a temporary file), and compares the two
JSON readings. Prints one line per file that differs, then counts:

- `same`: kubectl reads both, as the same objects;
- `differs`: kubectl reads both, as different objects (a data change);
- `kyaml refuses`: kubectl reads the file, `kyaml fmt` refuses it;
- `kubectl refuses`: kubectl refuses the file (not an object, a template,
  not YAML); kyaml's answer is not judged here.

Exit 1 when a file differs or is refused by kyaml only. This is the last
word the corpus test (tests/fmt.rs, `shared_corpus_reads_as_kubectl_reads`,
whose expected data come from compat/kubectl_read.py) defers to, run by
hand: kubectl takes about 0.1 s a call.
"""
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile


def kubectl(path):
    run = subprocess.run(
        ["kubectl", "label", "--local", "-f", path, "probe=1", "-o", "json"],
        capture_output=True, text=True)
    if run.returncode != 0:
        return None
    objects, decoder, text = [], json.JSONDecoder(), run.stdout
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return objects
        value, i = decoder.raw_decode(text, i)
        objects.append(value)


def judge(binary, path):
    want = kubectl(str(path))
    if want is None:
        return "kubectl refuses", path, ""
    fmt = subprocess.run([binary, "fmt", str(path)], capture_output=True)
    if fmt.returncode != 0:
        return "kyaml refuses", path, fmt.stderr.decode(errors="replace").strip()
    with tempfile.NamedTemporaryFile(suffix=".yaml", delete=False) as out:
        out.write(fmt.stdout)
    try:
        got = kubectl(out.name)
    finally:
        os.unlink(out.name)
    if got != want:
        return "differs", path, "kubectl reads kyaml's output otherwise"
    return "same", path, ""


def main():
    binary, dirs = sys.argv[1], sys.argv[2:]
    files = sorted(p for d in dirs for p in pathlib.Path(d).rglob("*")
                   if p.suffix in (".yaml", ".yml") and p.is_file())
    counts = {"same": 0, "differs": 0, "kyaml refuses": 0, "kubectl refuses": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for verdict, path, why in pool.map(lambda p: judge(binary, p), files):
            counts[verdict] += 1
            if verdict in ("differs", "kyaml refuses"):
                print(f"{verdict}: {path}: {why.splitlines()[0] if why else ''}")
    print(", ".join(f"{n} {k}" for k, n in counts.items()) + f" ({len(files)} files)")
    sys.exit(1 if counts["differs"] or counts["kyaml refuses"] else 0)


if __name__ == "__main__":
    main()
