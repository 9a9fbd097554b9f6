#!/usr/bin/env python3
"""Write tests/data/plain-scalars.jsonl: random plain scalars as kubectl reads them.

Each scalar X is read by ../shared/compat/kubectl_read.py (its `documents`, the
same path as the command line) as a value (`v: X`) and as a key (`X: v`).
One JSON line per scalar: {"scalar", "value" | "value_error", "key" |
"key_error" | "key_oracle_crash"}. Scalars that are not a plain scalar there (a YAML syntax error)
are left out. The Rust test (src/scan/resolve/tests.rs) compares without Python.

Usage: tools/gen_plain_scalars.py PATH/TO/kubectl_read.py [COUNT] > tests/data/plain-scalars.jsonl
"""
import importlib.util
import json
import random
import sys

spec = importlib.util.spec_from_file_location('kubectl_read', sys.argv[1])
kr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kr)
count = int(sys.argv[2]) if len(sys.argv) > 2 else 4000

rng = random.Random(13)
ALPHABET = ('0123456789' * 3) + '0000011111' + '+-_.eE' * 2 + 'xXoObB' + 'acfFnNyYiItT'
PREFIXES = ['', '', '', '', '-', '+', '0x', '0X', '0o', '0O', '0b', '0B', '-0b', '-0x', '+0o', '.',
            '-.', '+.', '0', '00', '1_', '9']
WORDS = ['on', 'off', 'yes', 'no', 'y', 'n', 'true', 'False', 'NULL', '~', '.inf', '-.Inf', '+.INF',
         '.nan', '.NaN', 'inf', 'nan', '<<', '0777', '1e3', '1e6', '1e-7', '0.1', '3.14159',
         '16777217', '1e38', '1e39', '-1e39', '3.4028235e38', '1e-45', '1e-46', '-0.0', '-0',
         '9223372036854775807', '9223372036854775808', '-9223372036854775808',
         '-9223372036854775809', '18446744073709551615', '18446744073709551616',
         '0x7fffffffffffffff', '0x8000000000000000', '0b' + '1' * 64, '0b' + '1' * 65,
         '-0b' + '1' * 63, '-0b1' + '0' * 63, '0o' + '7' * 22, '1' * 310, '1' * 309 + '.5',
         '17976931348623157' + '0' * 292, '17976931348623158' + '0' * 292,
         '17976931348623159' + '0' * 292, '.' + '0' * 400 + '1', '1e-400', '1e_+3', '1e_-3',
         '12.e3', '12._e3', '0_0_7.5', '-_.5', '1.5_0', '1__0', '0x_1F', '._5', '.5_5',
         '.5e1_0', '1_e3', '00e3', '-00.5', '+.5e3', '08', '-08', '0e99999999999999999999',
         '1e0000000000000000003', '.5e-99999999999', '1_000.5e1_0']


def digits(n, alphabet='0123456789'):
    out = ''.join(rng.choice(alphabet) for _ in range(n))
    # an underscore now and then, anywhere
    while rng.random() < 0.15:
        i = rng.randrange(len(out) + 1)
        out = out[:i] + '_' + out[i:]
    return out


def number_like():
    """Sign, digits, fraction, exponent, base prefixes: mostly numbers, some near misses."""
    sign = rng.choice(['', '', '', '-', '+', '_'])
    kind = rng.random()
    if kind < 0.2:
        prefix = rng.choice(['0x', '0X', '0o', '0O', '0b', '0B'])
        alphabet = {'x': '0123456789abcdefABCDEF', 'o': '01234567', 'b': '01'}[prefix[1].lower()]
        if rng.random() < 0.2:
            alphabet += '89gG.'
        return sign + prefix + digits(rng.choice([0, 1, 2, 3, 8, 15, 16, 17, 22, 23, 63, 64, 65]), alphabet)
    whole = digits(rng.choice([0, 1, 1, 2, 3, 5, 10, 17, 19, 20, 21, 25]))
    if rng.random() < 0.3:
        whole = '0' * rng.choice([1, 1, 2]) + whole
    text = sign + whole
    if rng.random() < 0.5:
        text += '.' + digits(rng.choice([0, 0, 1, 2, 3, 8, 17]))
    if rng.random() < 0.35:
        text += rng.choice('eE') + rng.choice(['', '', '+', '-', '_', '_-']) + digits(rng.choice([0, 1, 1, 2, 3, 4]))
    if rng.random() < 0.05:
        text += rng.choice(ALPHABET)
    return text or '0'


def scalar():
    if rng.random() < 0.6:
        return number_like()
    n = rng.choice([1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 10, 14, 20, 24])
    body = ''.join(rng.choice(ALPHABET) for _ in range(n))
    return rng.choice(PREFIXES) + body


def read(text, key=False):
    """('ok', data) | ('error', message) | ('crash', message) | None (not a
    plain scalar here). A crash is the oracle's own failure: a float key past
    float32's range (go_float32_text cannot spell infinity; Go writes +Inf)."""
    try:
        docs = list(kr.documents(text))
    except kr.Refused as e:
        return ('error', str(e))
    except (ValueError, OverflowError) as e:
        return ('crash', repr(e)) if key else None
    except Exception:                # YAML syntax: not a plain scalar in this place
        return None
    return ('ok', docs)


def main():
    seen = set()
    out = []
    candidates = WORDS + [scalar() for _ in range(count * 3)]
    for x in candidates:
        if x in seen or len(out) >= count:
            continue
        seen.add(x)
        v = read(f'v: {x}\n')
        k = read(f'{x}: v\n', key=True)
        if v is None or k is None:
            continue
        if v[0] == 'ok' and (v[1] != [dict(v=v[1][0].get('v'))] if isinstance(v[1][0], dict) else True):
            continue
        row = {'scalar': x}
        if v[0] == 'ok':
            row['value'] = v[1][0]['v']
        else:
            row['value_error'] = v[1]
        if k[0] == 'ok':
            d = k[1][0]
            if not isinstance(d, dict) or len(d) != 1 or list(d.values()) != ['v']:
                continue
            row['key'] = list(d)[0]
        elif k[0] == 'crash':
            row['key_oracle_crash'] = k[1]
        else:
            row['key_error'] = k[1]
        out.append(row)
    for row in out:
        print(json.dumps(row, ensure_ascii=False, allow_nan=False))


main()
