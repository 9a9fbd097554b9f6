#!/usr/bin/env python3
"""Write tests/data/corpus-yaml-data.jsonl: what kubectl reads from each file
of tests/data/corpus-yaml, so tests compare without Python.

One JSON line per file, in path order: {"path": path relative to
tests/data/corpus-yaml, "documents": [one JSON value per document]} (or
"error": the message, where kubectl_read.py refuses the file). Floats are as
Python's json writes them (1.0 for the float one): compare numbers by value.

Usage: tools/corpus_yaml_data.py PATH/TO/kubectl_read.py > tests/data/corpus-yaml-data.jsonl
"""
import json
import pathlib
import subprocess
import sys

reader = sys.argv[1]
root = pathlib.Path(__file__).resolve().parent.parent / 'tests/data/corpus-yaml'
for path in sorted(p for p in root.rglob('*') if p.suffix in ('.yaml', '.yml')):
    run = subprocess.run([sys.executable, reader, str(path)], capture_output=True, text=True)
    row = {'path': str(path.relative_to(root))}
    if run.returncode == 0:
        row['documents'] = [json.loads(line) for line in run.stdout.splitlines()]
    else:
        row['error'] = run.stderr.strip()
    print(json.dumps(row, ensure_ascii=False, allow_nan=False))
