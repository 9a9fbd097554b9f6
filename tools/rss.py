#!/usr/bin/env python3
"""Peak resident memory of the kyaml CLI, against the limits of the issues:

    python3 tools/rss.py BINARY INPUT [--runs N] [--check]
    python3 tools/rss.py BINARY --stream MB [--runs N] [--check]
    python3 tools/rss.py BINARY --yaml INPUT [--runs N] [--check]
    python3 tools/rss.py BINARY --yaml-stream MB [--runs N] [--check]

With INPUT, one document from a file and from a pipe: at most its size +
2 MiB. With --yaml, a large YAML file (tools/make_big_yaml.py makes the
two of issue 24) converted (`kyaml INPUT`) and formatted (`kyaml fmt
INPUT`), both from the file: at most its size + 16 MiB, issue 24's target
for YAML streamed without a tree; .ci/run's rss_yaml step runs both
files.
With --stream, MB megabytes of JSON Lines (small objects, made on
the fly, never stored) from a pipe: at most 8 MiB, since the tool holds
one document at a time. With --yaml-stream, MB megabytes of YAML
documents (pods as `kubectl get -w -o yaml` prints them, `---` before each
but the first, with comments; made on the fly) from a pipe, converted
(`kyaml`) and formatted (`kyaml fmt -`): at most 16 MiB each (issue 31).

Each run is one process under GNU time (`/usr/bin/time -f %M`, Debian
package `time`), as the issues measure it: the peak RSS of the tool alone,
in KiB. (Python cannot measure it itself: a child forked from it inherits
its resident size as a floor for ru_maxrss.) Prints the range over the
runs, and last a one-line summary; exits 1 with --check if any run is over
the limit.
"""

import argparse
import os
import shutil
import subprocess
import sys


STREAM_LIMIT_KIB = 8 * 1024
YAML_STREAM_LIMIT_KIB = 16 * 1024
YAML_SLACK_KIB = 16 * 1024

# The stream's generator, run as its own process so that the pipe is fed
# while this one waits: argv[1] megabytes of JSON Lines, objects of about
# 100 bytes that differ line by line.
GENERATOR = r"""
import sys
lines = [
    '{"level":"info","seq":%d,"msg":"request done","path":"/api/v1/pods/p%d","ms":%d.%d,"ok":true}\n'
    % (i, i % 997, i % 1000, i % 7)
    for i in range(10000)
]
block = "".join(lines).encode()
left = int(sys.argv[1]) * 1000 * 1000
out = sys.stdout.buffer
while left > 0:
    piece = block[: min(left, len(block))]
    # Whole lines only: cut after the last line feed.
    cut = piece.rfind(b"\n") + 1
    if cut == 0:
        break
    out.write(piece[:cut])
    left -= cut
"""

# The YAML stream's generator (as GENERATOR): argv[1] megabytes of pod
# documents of about 600 bytes that differ document by document.
YAML_GENERATOR = r"""
import sys
docs = []
for i in range(2000):
    docs.append(
        ("---\n" if i else "")
        + "# event %d\n" % i
        + "apiVersion: v1\nkind: Pod\nmetadata:\n"
        + "  name: web-%d  # the pod\n  namespace: default\n" % (i % 997)
        + "  labels:\n    app: web\n    tier: \"front\"\n"
        + "  resourceVersion: \"%d\"\n" % (1000 + i)
        + "spec:\n  containers:\n  - name: web\n    image: nginx:1.%d\n" % (i % 30)
        + "    ports:\n    - containerPort: 8080\n      protocol: TCP\n"
        + "    args: [--port, \"8080\", --verbose]\n"
        + "    env:\n    - name: MODE\n      value: |\n        line one\n        line two %d\n" % i
        + "status:\n  phase: Running\n  ready: true\n  restarts: %d\n" % (i % 5)
    )
block = "".join(docs).encode()
left = int(sys.argv[1]) * 1000 * 1000
out = sys.stdout.buffer
separator = b""
while left > 0:
    piece = separator + block
    separator = b"---\n"
    if len(piece) > left:
        # Whole documents only: cut before the last `---` that fits.
        piece = piece[: piece.rfind(b"\n---\n", 0, left) + 1]
        if not piece:
            break
    out.write(piece)
    left -= len(piece)
"""


def peak_kib(argv, pipe_from=None, feed=None):
    """Runs argv under GNU time with stdout discarded, its stdin empty, fed
    by `cat pipe_from`, or by the command `feed`; returns the tool's peak
    RSS in KiB."""
    feeder = None
    stdin = subprocess.DEVNULL
    if pipe_from:
        feed = ["cat", pipe_from]
    if feed:
        feeder = subprocess.Popen(feed, stdout=subprocess.PIPE)
        stdin = feeder.stdout
    timed = ["/usr/bin/time", "-f", "%M"] + argv
    child = subprocess.Popen(
        timed, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    if feeder:
        feeder.stdout.close()
    _, err = child.communicate()
    if feeder:
        feeder.wait()
    if child.returncode != 0:
        sys.exit(f"{argv} failed with {child.returncode}: {err.decode()}")
    return int(err.decode().split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("input", nargs="?")
    ap.add_argument("--stream", type=int, metavar="MB", help="JSON Lines of this size from a pipe")
    ap.add_argument("--yaml", metavar="INPUT", help="a YAML file: convert and fmt, input + 16 MiB")
    ap.add_argument("--yaml-stream", type=int, metavar="MB",
                    help="YAML documents of this size from a pipe: convert and fmt, 16 MiB")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not shutil.which("/usr/bin/time"):
        sys.exit("needs GNU time: apt-get install time")
    if args.stream:
        return stream(args)
    if args.yaml:
        return yaml(args)
    if args.yaml_stream:
        return yaml_stream(args)
    if not args.input:
        ap.error("INPUT, --stream MB or --yaml INPUT is needed")

    size_kib = os.path.getsize(args.input) / 1024
    limit = size_kib + 2048
    kinds = {
        "file": lambda: peak_kib([args.binary, args.input]),
        # From a pipe the tool cannot learn the size up front.
        "pipe": lambda: peak_kib([args.binary], pipe_from=args.input),
        "empty input": lambda: peak_kib([args.binary]),
    }
    over = False
    worst = 0
    print(f"{args.input}: {size_kib:,.0f} KiB; limit input + 2 MiB = {limit:,.0f} KiB")
    for name, run in kinds.items():
        peaks = [run() for _ in range(args.runs)]
        bad = name != "empty input" and max(peaks) > limit
        if name != "empty input":
            worst = max(worst, max(peaks))
        over |= bad
        verdict = "OVER" if bad else "ok"
        print(f"  {name:12} peak RSS {min(peaks):,}-{max(peaks):,} KiB  {verdict}")
    print(f"{os.path.basename(args.input)}: {worst:,} KiB at most, limit {limit:,.0f} KiB"
          + (" OVER" if over else ""))
    if over and args.check:
        sys.exit(1)


def yaml(args):
    """The --yaml measurement: `kyaml INPUT` and `kyaml fmt INPUT` on a
    YAML file, each at most its size + 16 MiB."""
    size_kib = os.path.getsize(args.yaml) / 1024
    limit = size_kib + YAML_SLACK_KIB
    print(f"{args.yaml}: {size_kib:,.0f} KiB; limit input + 16 MiB = {limit:,.0f} KiB")
    worst = 0
    for name, argv in [("convert", [args.binary, args.yaml]),
                       ("fmt", [args.binary, "fmt", args.yaml])]:
        peaks = [peak_kib(argv) for _ in range(args.runs)]
        worst = max(worst, max(peaks))
        verdict = "OVER" if max(peaks) > limit else "ok"
        print(f"  {name:8} peak RSS {min(peaks):,}-{max(peaks):,} KiB"
              f" ({max(peaks) / size_kib:.1f}x the input)  {verdict}")
    over = worst > limit
    print(f"{os.path.basename(args.yaml)}: {worst:,} KiB at most, limit {limit:,.0f} KiB"
          + (" OVER" if over else ""))
    if over and args.check:
        sys.exit(1)


def stream(args):
    """The --stream measurement: the tool's peak RSS on args.stream MB of
    JSON Lines read from a pipe."""
    feed = [sys.executable, "-c", GENERATOR, str(args.stream)]
    peaks = [peak_kib([args.binary, "--compact"], feed=feed) for _ in range(args.runs)]
    over = max(peaks) > STREAM_LIMIT_KIB
    print(f"{args.stream} MB of JSON Lines from a pipe: peak RSS {min(peaks):,}-{max(peaks):,} KiB"
          f" ({args.runs} runs), limit {STREAM_LIMIT_KIB:,} KiB" + (" OVER" if over else ""))
    if over and args.check:
        sys.exit(1)


def yaml_stream(args):
    """The --yaml-stream measurement: the tool's peak RSS on
    args.yaml_stream MB of YAML documents read from a pipe, converted and
    formatted (`fmt -`, each document's reading decided alone, and `fmt
    --schema kubectl -`, the reading settled: standard input streams in
    both)."""
    feed = [sys.executable, "-c", YAML_GENERATOR, str(args.yaml_stream)]
    worst = 0
    for name, argv in [("convert", [args.binary, "--from", "yaml"]),
                       ("fmt", [args.binary, "fmt", "-"]),
                       ("fmt -s", [args.binary, "fmt", "--schema", "kubectl", "-"])]:
        peaks = [peak_kib(argv, feed=feed) for _ in range(args.runs)]
        worst = max(worst, max(peaks))
        verdict = "OVER" if max(peaks) > YAML_STREAM_LIMIT_KIB else "ok"
        print(f"  {name:8} peak RSS {min(peaks):,}-{max(peaks):,} KiB  {verdict}")
    over = worst > YAML_STREAM_LIMIT_KIB
    print(f"{args.yaml_stream} MB of YAML documents from a pipe: peak RSS {worst:,} KiB at most"
          f" ({args.runs} runs each), limit {YAML_STREAM_LIMIT_KIB:,} KiB" + (" OVER" if over else ""))
    if over and args.check:
        sys.exit(1)


if __name__ == "__main__":
    main()
