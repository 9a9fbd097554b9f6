#!/usr/bin/env python3
"""Writes a commented copy of each block-style bench file, for timing
`kyaml fmt` with comments against the YAML path without them (#14):

    python3 tools/commented_yaml.py OUTDIR benches/data/*.yaml
    tools/instructions.sh yaml OUTDIR/*.yaml benches/data/*.yaml

Every third line that is not inside a block scalar gets a line comment, and
every sixth also a head comment above it at its indentation. Speed is
compared per input byte (the comments add 17-38% of bytes).
"""
import os
import re
import sys


def commented(text):
    out, n, block = [], 0, None
    for line in text.split('\n'):
        indent = len(line) - len(line.lstrip(' '))
        if block is not None:
            if line.strip() == '' or indent > block:
                out.append(line)
                continue
            block = None
        s = line.rstrip()
        if re.search(r'(: |^\s*- )[|>][-+0-9]*$', s):
            block = indent
            out.append(line)
            continue
        n += 1
        # Not after a quoted string that may go on past its line.
        if n % 3 == 0 and s and (not s.endswith('"') or (s.count('"') % 2 == 0 and '\\' not in s)):
            if n % 6 == 0:
                out.append(' ' * indent + '# head comment %d' % n)
            out.append(s + ' # line %d' % n)
        else:
            out.append(line)
    return '\n'.join(out)


def main():
    outdir, paths = sys.argv[1], sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = commented(f.read())
        out = os.path.join(outdir, os.path.basename(path))
        with open(out, 'w', encoding='utf-8') as f:
            f.write(text)
        print(out, len(text.encode()), 'bytes')


if __name__ == '__main__':
    main()
