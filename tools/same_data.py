#!/usr/bin/env python3
"""Did `kyaml fmt -w` keep what every reader reads? Compares a tree before
and after (BEFORE AFTER: two folders holding the same files).

Each YAML file that changed is read before and after with PyYAML (YAML 1.1,
`safe_load_all`) and with ruamel.yaml in YAML 1.2 mode (`typ='safe'`,
pure): a file that is not a Kubernetes object must read the same under
both. A file whose every document is a map with `apiVersion` and `kind` is
read by kubectl: its reading is checked elsewhere (kubectl_read.py), and
it is counted apart. Prints one JSON object: counts and the files whose
data changed. Exit 0: no data changed; 1: some did; 77: PyYAML or
ruamel.yaml is not importable (`pip install pyyaml ruamel.yaml`).
Comments (with ../shared/compat/yaml_comments.py's rule): with
`--comments`, each changed file's comments must all be kept (a lost one
fails); files whose comments come out in another order are listed apart
(issue 30 item 3: own-line comments at different indentations).
"""
import json
import os
import sys

try:
    import yaml
    from ruamel.yaml import YAML
except ImportError as e:
    print(f"same_data.py: skipped: {e}")
    sys.exit(77)


def pyyaml(text):
    return list(yaml.safe_load_all(text))


def ruamel12(text):
    y = YAML(typ="safe", pure=True)
    y.version = (1, 2)
    return [plain(d) for d in y.load_all(text)]


def plain(data):
    """ruamel's safe types as Python's own, to compare."""
    if isinstance(data, dict):
        return {plain(k): plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data


def kubernetes(docs):
    docs = [d for d in docs if d is not None]
    return bool(docs) and all(
        isinstance(d, dict) and "apiVersion" in d and "kind" in d for d in docs
    )


def comments(text):
    """The comments of a YAML text, as yaml_comments.py finds them."""
    spans = []
    for tok in yaml.scan(text, Loader=yaml.SafeLoader):
        if isinstance(tok, yaml.ScalarToken):
            start = tok.start_mark.index
            if tok.style in ("|", ">"):
                nl = text.find("\n", start)
                if nl < 0 or nl >= tok.end_mark.index:
                    continue
                start = nl + 1
            spans.append((start, tok.end_mark.index))
    spans.sort()
    out, i, si, n = [], 0, 0, len(text)
    while i < n:
        while si < len(spans) and spans[si][1] <= i:
            si += 1
        if si < len(spans) and spans[si][0] <= i:
            i = spans[si][1]
            continue
        c = text[i]
        if c in "\"'":
            i += 1
            continue
        if c == "#" and (i == 0 or text[i - 1] in " \t\n\r"):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end].rstrip())
            i = end
            continue
        i += 1
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with_comments = "--comments" in sys.argv
    before_dir, after_dir = args
    report = {"identical": 0, "rewritten": 0, "kubernetes": 0, "unreadable": 0,
              "data_changes": [], "lost_comments": [],
              "reordered_comments": []}
    for root, _dirs, files in os.walk(after_dir):
        for name in sorted(files):
            if not name.endswith((".yaml", ".yml")):
                continue
            after_path = os.path.join(root, name)
            rel = os.path.relpath(after_path, after_dir)
            before_path = os.path.join(before_dir, rel)
            with open(before_path, "rb") as f:
                before = f.read()
            with open(after_path, "rb") as f:
                after = f.read()
            if before == after:
                report["identical"] += 1
                continue
            report["rewritten"] += 1
            before_text = before.decode("utf-8", "replace")
            after_text = after.decode("utf-8", "replace")
            try:
                old11 = pyyaml(before_text)
            except Exception:
                report["unreadable"] += 1
                continue
            if kubernetes(old11):
                report["kubernetes"] += 1
            else:
                try:
                    same11 = old11 == pyyaml(after_text)
                    same12 = ruamel12(before_text) == ruamel12(after_text)
                except Exception as e:
                    same11 = same12 = False
                    print(f"{rel}: {e}", file=sys.stderr)
                if not (same11 and same12):
                    which = [r for r, same in (("YAML 1.1", same11), ("YAML 1.2", same12)) if not same]
                    report["data_changes"].append(f"{rel}: {' and '.join(which)}")
            if with_comments:
                try:
                    old_comments, new_comments = comments(before_text), comments(after_text)
                    missing = list(old_comments)
                    for c in new_comments:
                        if c in missing:
                            missing.remove(c)
                    if missing:
                        report["lost_comments"].append(f"{rel}: {missing[0]}")
                    elif [c for c in new_comments if c in old_comments] != old_comments:
                        report["reordered_comments"].append(rel)
                except yaml.YAMLError:
                    pass
    print(json.dumps(report, indent=1))
    sys.exit(1 if report["data_changes"] or report["lost_comments"] else 0)


if __name__ == "__main__":
    main()
