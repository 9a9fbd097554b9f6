#!/usr/bin/env python3
"""Captures what a kyaml build writes for each YAML input with merge keys
in tests/data/yaml-merges/ (regular and --compact; stdout, stderr and exit
status, the input on standard input) into tests/data/yaml-merges.jsonl,
which tests/yaml_merges.rs holds the current build to.

    python3 tools/capture_merges.py KYAML_BINARY

The stored file was captured from the loading reader (main at 7601483),
before merges streamed: the outputs a streaming reader must keep; then
alias_key.yaml and dup_in_merged.yaml again, after two fixes kubectl's
reading showed (an alias of a scalar `<<` is no merge key; a key written
twice in a merged map keeps its last value).
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIR = ROOT / "tests" / "data" / "yaml-merges"


def main():
    binary = sys.argv[1]
    cases = []
    for path in sorted(DIR.glob("*.yaml")):
        schema = ["--schema", "yaml-1.2"] if path.stem == "yaml12" else []
        for compact in ([], ["--compact"]):
            args = ["--from", "yaml"] + schema + compact
            run = subprocess.run([binary] + args, input=path.read_bytes(), capture_output=True)
            cases.append({
                "file": path.name,
                "args": args,
                "stdout": run.stdout.decode(),
                "stderr": run.stderr.decode(),
                "status": run.returncode,
            })
    out = ROOT / "tests" / "data" / "yaml-merges.jsonl"
    out.write_text("".join(json.dumps(c) + "\n" for c in cases))
    print(f"{len(cases)} cases written to {out}")


if __name__ == "__main__":
    main()
