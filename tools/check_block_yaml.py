#!/usr/bin/env python3
"""Check that kubectl reads each block-YAML rendering as its JSON file's data.

For each NAME.json given, reads NAME.yaml with ../shared/compat/kubectl_read.py
(the `documents` function: one document expected) and compares with the JSON
data: maps unordered, numbers by value (an integer and a float are equal when
their values are). Prints one line per file with both sizes; exits 1 on any
difference, naming the first path where the data differ.

Usage: tools/check_block_yaml.py PATH/TO/kubectl_read.py benches/data/*.json
"""
import importlib.util
import json
import pathlib
import sys


def load_reader(path):
    spec = importlib.util.spec_from_file_location('kubectl_read', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_difference(a, b, path='$'):
    """The path of the first difference between two JSON values, or None."""
    if isinstance(a, bool) or isinstance(b, bool):
        return None if a is b else path
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return None if a == b else path
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f'{path} (keys {sorted(a.keys() ^ b.keys())[:5]})'
        for k in a:
            d = first_difference(a[k], b[k], f'{path}.{k}')
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f'{path} (length {len(a)} vs {len(b)})'
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f'{path}[{i}]')
            if d:
                return d
        return None
    return None if a == b and type(a) is type(b) else f'{path} ({a!r} vs {b!r})'


def main():
    reader = load_reader(sys.argv[1])
    failed = False
    for json_path in map(pathlib.Path, sys.argv[2:]):
        yaml_path = json_path.with_suffix('.yaml')
        data = json.loads(json_path.read_text(encoding='utf-8'))
        docs = list(reader.documents(yaml_path.read_text(encoding='utf-8')))
        diff = first_difference(data, docs[0]) if len(docs) == 1 else f'{len(docs)} documents'
        status = 'same data' if diff is None else f'DIFFERENT at {diff}'
        print(f'{yaml_path}: {yaml_path.stat().st_size} bytes (JSON {json_path.stat().st_size}): {status}')
        failed |= diff is not None
    sys.exit(1 if failed else 0)


main()
