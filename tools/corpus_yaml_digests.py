#!/usr/bin/env python3
"""Write tests/data/corpus-yaml-digests.jsonl: what kubectl reads from each
file of ../shared/corpus-yaml (the whole repositories, 22 MB: too big to
check in as data), as one digest per document, so that tests/fmt.rs can
check `kyaml fmt` over the folder without Python.

One JSON line per `.yaml`/`.yml` file, in path order: {"path": path
relative to the folder, "documents": [digest per document]}, or "error":
the message where kubectl_read.py refuses the file (kubectl refuses it).

A digest is FNV-1a (64 bits, 16 hex digits) of the document's canonical
form, which tests/fmt.rs (`canonical`) writes alike: `n`, `t`, `f`; a
number `#` and its float64 value as Rust's `{:e}` writes it (shortest
digits: `1e0`, `-2.5e-7`; zero `0`); a string `s`, its length in UTF-8
bytes, `:`, its bytes; a list `[` items `]`; a map `{` its entries sorted
by key (key as a string, then the value) `}`.

Usage: tools/corpus_yaml_digests.py PATH/TO/compat/kubectl_read.py PATH/TO/corpus-yaml \
           > tests/data/corpus-yaml-digests.jsonl
(run with the Python that has PyYAML, e.g. ~/.cache/kyaml-compat/py/bin/python)
"""
import decimal
import importlib.util
import json
import pathlib
import sys

spec = importlib.util.spec_from_file_location('kubectl_read', sys.argv[1])
kubectl_read = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kubectl_read)
root = pathlib.Path(sys.argv[2])


def number(x):
    x = float(x)
    if x == 0:
        return '0'
    sign, digits, exp = decimal.Decimal(repr(x)).normalize().as_tuple()
    digits = ''.join(map(str, digits))
    mantissa = digits[0] + ('.' + digits[1:] if len(digits) > 1 else '')
    return ('-' if sign else '') + mantissa + 'e' + str(exp + len(digits) - 1)


def canonical(v, out):
    if v is None:
        out.append(b'n')
    elif v is True:
        out.append(b't')
    elif v is False:
        out.append(b'f')
    elif isinstance(v, (int, float)):
        out.append(b'#' + number(v).encode())
    elif isinstance(v, str):
        b = v.encode('utf-8', 'surrogatepass')
        out.append(b's%d:' % len(b) + b)
    elif isinstance(v, list):
        out.append(b'[')
        for item in v:
            canonical(item, out)
        out.append(b']')
    else:
        out.append(b'{')
        for k in sorted(v):
            canonical(k, out)
            canonical(v[k], out)
        out.append(b'}')


def digest(v):
    out = []
    canonical(v, out)
    h = 0xcbf29ce484222325
    for byte in b''.join(out):
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return '%016x' % h


for path in sorted(p for p in root.rglob('*')
                   if p.suffix in ('.yaml', '.yml') and p.is_file() and not p.is_symlink()):
    row = {'path': str(path.relative_to(root))}
    try:
        text = path.read_text(encoding='utf-8')
        row['documents'] = [digest(doc) for doc in kubectl_read.documents(text)]
    except (kubectl_read.Refused, kubectl_read.yaml.YAMLError, ValueError) as e:
        row['error'] = str(e).splitlines()[0] if str(e) else type(e).__name__
    print(json.dumps(row, ensure_ascii=False), flush=True)
