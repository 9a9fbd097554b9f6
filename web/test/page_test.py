#!/usr/bin/env python3
"""The playground page in a real browser (headless Chromium): each input,
given in the URL fragment (`index.html#in=...&mode=fmt`), must come out of
the page's `output` element byte for byte as `kyaml fmt --schema kubectl`
writes it (the schema the page is given), and a
broken input must show the CLI's error, line and column, in the `errors`
element. Then a 1 MB manifest put into the page: its render time, as the
page measures it (performance.now()), is printed.

    python3 web/test/page_test.py [--kyaml PATH] [--screenshot PNG]

Needs web/dist (web/build.sh) and `kyaml` (default target/debug/kyaml).
Inputs: 20 files of ../shared/corpus-yaml when present (every 1/20th of
those `kyaml fmt` takes that the page can be given: LF line ends, no byte
order mark, at most 64 KB), else the committed web/test/inputs. The first
input and the broken one are read with `--dump-dom` of the page itself;
the others in one browser run, each page in a frame of a harness page that
copies its `output` and `errors` text out (a launch is seconds). Skips
(exit 0, saying so) without Chromium.
"""
import argparse
import html
import html.parser
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

WEB = pathlib.Path(__file__).resolve().parent.parent
ROOT = WEB.parent
CORPUS = ROOT.parent / "shared" / "corpus-yaml"
# The first input's URL rides in one argv string (at most 128 KiB on
# Linux), and encodeURIComponent may triple the bytes: it is the smallest.
MAX_INPUT = 64 * 1024
BROKEN = "a: [1,\nb: 2\n"


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return name
    return None


def browse(browser, url, *extra):
    """Runs headless Chromium on `url`; returns its standard output."""
    with tempfile.TemporaryDirectory() as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", f"--user-data-dir={profile}",
               "--allow-file-access-from-files", *extra, url]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                              check=True).stdout


class Texts(html.parser.HTMLParser):
    """The text of the elements with the given ids (none inside another;
    markup inside them dropped, character references resolved)."""

    def __init__(self, ids):
        super().__init__(convert_charrefs=True)
        self.texts = {i: None for i in ids}
        self.reading = None  # the id being read
        self.depth = 0  # of the elements open inside it, itself included

    def handle_starttag(self, tag, attrs):
        if self.reading is not None:
            self.depth += 1
        elif dict(attrs).get("id") in self.texts:
            self.reading = dict(attrs)["id"]
            self.texts[self.reading] = ""
            self.depth = 1

    def handle_endtag(self, tag):
        if self.reading is not None:
            self.depth -= 1
            if self.depth == 0:
                self.reading = None

    def handle_data(self, data):
        if self.reading is not None:
            self.texts[self.reading] += data


def page_url(index, text):
    fragment = "in=" + urllib.parse.quote(text, safe="") + "&mode=fmt&schema=kubectl"
    return f"{index.as_uri()}#{fragment}"


def page_texts(browser, index, text, ids=("output", "errors")):
    dom = browse(browser, page_url(index, text), "--dump-dom")
    parser = Texts(ids)
    parser.feed(dom)
    return parser.texts


def inputs():
    """The input files: 20 of the corpus, or the committed ones."""
    if not CORPUS.is_dir():
        print(f"no {CORPUS}: the committed inputs of web/test/inputs")
        return sorted((WEB / "test" / "inputs").glob("*.yaml"))
    fit = []
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix not in (".yaml", ".yml") or not path.is_file():
            continue
        data = path.read_bytes()
        if 0 < len(data) <= MAX_INPUT and b"\r" not in data and not data.startswith(b"\xef\xbb\xbf"):
            fit.append(path)
    return fit


def big_manifest(size=1 << 20):
    """A stream of commented Deployments of about `size` bytes."""
    doc = (WEB / "test" / "inputs" / "deployment.yaml").read_text()
    docs, total, n = [], 0, 0
    while total < size:
        one = doc.replace("name: web #", f"name: web-{n} #")
        docs.append(one)
        total += len(one) + 4
        n += 1
    return "---\n".join(docs)


def harness_texts(browser, index, texts):
    """The `output` and `errors` text of the page given each of `texts`,
    from one browser run: a harness page holds each in a frame."""
    frames = "".join(
        f'<iframe id="f{i}" src="{html.escape(page_url(index, t))}"></iframe>'
        for i, t in enumerate(texts))
    copy = ("<script>window.addEventListener('load', () => {"
            "for (const f of document.querySelectorAll('iframe')) {"
            "const d = f.contentDocument;"
            "for (const id of ['output', 'errors']) {"
            "const pre = document.createElement('pre');"
            "pre.id = f.id + '-' + id;"
            "pre.textContent = d.getElementById(id).textContent;"
            "document.body.appendChild(pre);}}});</script>")
    with tempfile.TemporaryDirectory() as tmp:
        harness = pathlib.Path(tmp) / "harness.html"
        harness.write_text(f"<!doctype html><body>{frames}{copy}</body>")
        dom = browse(browser, harness.as_uri(), "--dump-dom")
    ids = [f"f{i}-{what}" for i in range(len(texts)) for what in ("output", "errors")]
    parser = Texts(ids)
    parser.feed(dom)
    return [{"output": parser.texts[f"f{i}-output"], "errors": parser.texts[f"f{i}-errors"]}
            for i in range(len(texts))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kyaml", default=str(ROOT / "target" / "debug" / "kyaml"))
    ap.add_argument("--screenshot", help="also save a screenshot of the page here")
    args = ap.parse_args()
    browser = chromium()
    if browser is None:
        print("skipped: no Chromium (apt-get install chromium)")
        return 0
    index = WEB / "dist" / "index.html"
    if not index.is_file():
        sys.exit("no web/dist/index.html: run web/build.sh")

    # The page is given `schema=kubectl`; the CLI is told the same, since
    # without a schema it reads a file that is not Kubernetes objects as
    # its other consumers do (and may leave it as written).
    def cli(text):
        return subprocess.run(
            [args.kyaml, "fmt", "--schema", "kubectl"], input=text.encode(), capture_output=True
        )

    cases = []
    for path in inputs():
        text = path.read_text(encoding="utf-8")
        done = cli(text)
        if done.returncode == 0:
            cases.append((path, text, done.stdout.decode()))
    cases = cases[:: max(1, len(cases) // 20)][:20]
    cases.sort(key=lambda case: len(case[1]))
    failures = []

    def check(path, got, want):
        if got["output"] != want or got["errors"]:
            failures.append(f"{path}: the page's output differs from `kyaml fmt`'s\n{got}")

    first = cases[0]
    check(first[0], page_texts(browser, index, first[1]), first[2])
    framed = harness_texts(browser, index, [text for _, text, _ in cases[1:]])
    for (path, _, want), got in zip(cases[1:], framed):
        check(path, got, want)

    # The broken input: the CLI's `<stdin>:LINE:COLUMN: MESSAGE`, in the
    # page's words.
    done = cli(BROKEN)
    said = done.stderr.decode().splitlines()[0]
    _, line, column, message = said.split(":", 3)
    want = f"error: line {line}, column {column}: {message.strip()}"
    got = page_texts(browser, index, BROKEN)
    if got["errors"] != want or got["output"]:
        failures.append(f"broken input: want errors {want!r}, got {got}")

    # 1 MB put in: the page's own timing (its status line). The page is
    # ready at its load event, and a change of mode renders at once.
    big = big_manifest()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        shutil.copy(WEB / "dist" / "playground.js", tmp)
        put = ("<script>const t = document.getElementById('text');"
               f"t.value = {json.dumps(big)};"
               "document.getElementById('mode').dispatchEvent(new Event('change'));</script>")
        page = index.read_text().replace("</body>", put + "</body>")
        (tmp / "index.html").write_text(page)
        dom = browse(browser, (tmp / "index.html").as_uri(), "--dump-dom")
        parser = Texts(("status", "in-info", "errors"))
        parser.feed(dom)
        if parser.texts["errors"]:
            failures.append(f"1 MB input: {parser.texts['errors']}")
        timing = f"1 MB input ({parser.texts['in-info']}): {parser.texts['status']}"

    if args.screenshot:
        browse(browser, index.as_uri(), f"--screenshot={args.screenshot}",
               "--window-size=1280,800")
    for f in failures:
        print(f)
    if failures:
        print(f"FAILED: {len(failures)} of {len(cases) + 1} cases; {timing}")
        return 1
    print(f"{len(cases)} inputs byte-identical to `kyaml fmt` and the broken one's error"
          f" in the page; {timing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
