#!/usr/bin/env python3
"""The two large YAML inputs of issue 24's memory target:

    python3 tools/make_big_yaml.py OUTDIR [--pods N] [--ints N] [--urls] [--compose N [--written-out]]

writes OUTDIR/pods.yaml, a block-style `kind: List` of N pod-like items
(default 40,000: 61,880,050 bytes) in the shape of `kubectl get pods -A
-o yaml` on a large cluster (keys sorted, lists of maps unindented under
their key, quoted timestamps and numeric strings), with a head comment
before every item and two line comments in each; and OUTDIR/ints.yaml,
one flow list of N integers below 10^7 (default 6,000,000: 54,333,920
bytes), twelve to a line. With --urls, also OUTDIR/urls.yaml: pods.yaml
with `&` and `*` in strings (an annotation `http://...?a=1&b=2` and a glob
`logs/*.txt` in each pod) and the first pod's `resources` anchored
(`&resources`), every other pod's an alias of it (`*resources`): the
streaming reader's keep arena holds that one map. With --compose N (0:
none, the default), also OUTDIR/compose.yaml: a docker-compose file of N
services (132,000: about 50 MB), shared settings anchored at its head
(`x-defaults: &defaults`, `x-env: &env`, `x-healthcheck: &health`) and
merged into every service (`<<: *defaults`, its environment `<<: *env`,
every tenth `<<: [*health, *defaults]`), with comments; with
--written-out, OUTDIR/compose_written_out.yaml too: the same data, each
merge written out in its map, no anchors (its KYAML is compose.yaml's,
byte for byte: a like-for-like input that costs no merge, the bound of
tools/bench_yaml.py's compose row). All are the same bytes
on every run (a fixed seed). tools/rss.py --yaml measures the tool's peak
RSS on them.
"""

import argparse
import os
import random

NAMESPACES = ["default", "kube-system", "monitoring", "payments", "search", "ingress-nginx",
              "logging", "cert-manager", "batch-jobs", "frontend"]
APPS = ["api", "worker", "web", "cache", "indexer", "scheduler", "gateway", "exporter"]
NODES = [f"ip-10-{a}-{b}-{c}.eu-west-1.compute.internal"
         for a, b, c in [(0, 12, 7), (0, 33, 101), (1, 4, 250), (1, 87, 9), (2, 19, 44),
                         (2, 200, 3), (3, 61, 128), (3, 142, 77)]]


SAFE = "bcdfghjklmnpqrstvwxz2456789"


def safe(rng, n):
    return "".join(rng.choice(SAFE) for _ in range(n))


def pod(i, rng, urls=False):
    ns = NAMESPACES[i % len(NAMESPACES)]
    app = APPS[(i // 3) % len(APPS)]
    # Kubernetes' name suffixes: no vowels, no digits 0, 1, 3 (never a number)
    rs = f"{app}-{safe(rng, 10)}"
    name = f"{rs}-{safe(rng, 5)}"
    uid = "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                         rng.getrandbits(16), rng.getrandbits(48))
    owner_uid = "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16),
                                               rng.getrandbits(16), rng.getrandbits(16),
                                               rng.getrandbits(48))
    day, hour, minute, sec = 1 + i % 28, i % 24, i % 60, (i * 7) % 60
    ts = f"2026-10-{day:02d}T{hour:02d}:{minute:02d}:{sec:02d}Z"
    ip = f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"
    node = NODES[i % len(NODES)]
    version = f"1.{i % 17}.{i % 5}"
    restarts = rng.randrange(0, 4)
    port = 8080 + i % 3
    text = f"""# pod {i}: {ns}/{name}
- apiVersion: v1
  kind: Pod
  metadata:
    annotations:
      prometheus.io/scrape: "true"
    creationTimestamp: "{ts}"
    labels:
      app.kubernetes.io/name: {app}
      app.kubernetes.io/version: {version}
      pod-template-hash: {rs[len(app) + 1:]}
    name: {name}
    namespace: {ns}
    ownerReferences:
    - apiVersion: apps/v1
      kind: ReplicaSet
      name: {rs}
      uid: {owner_uid}
    resourceVersion: "{1000000 + i * 37}"
    uid: {uid}
  spec:
    containers:
    - image: registry.example.com/{ns}/{app}:v{version}
      imagePullPolicy: IfNotPresent
      name: {app}
      ports:
      - containerPort: {port}  # the metrics port too
        name: http
        protocol: TCP
      resources:
        limits:
          memory: 512Mi
        requests:
          cpu: 100m
          memory: 256Mi
    nodeName: {node}
    restartPolicy: Always
    serviceAccountName: {app}
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "{ts}"
      status: "True"
      type: Ready
    containerStatuses:
    - containerID: containerd://{rng.getrandbits(256):064x}
      name: {app}
      ready: true
      restartCount: {restarts}  # restarts since the pod started
      started: true
    hostIP: {ip.replace("10.", "172.", 1)}
    phase: Running
    podIP: {ip}
    startTime: "{ts}"
"""
    if not urls:
        return text
    text = text.replace(
        '      prometheus.io/scrape: "true"\n',
        f'      example.com/probe: "http://{ip}:{port}/metrics?a=1&b=2"\n'
        '      example.com/logs: logs/*.txt\n'
        '      prometheus.io/scrape: "true"\n', 1)
    resources = ("      resources:\n        limits:\n          memory: 512Mi\n"
                 "        requests:\n          cpu: 100m\n          memory: 256Mi\n")
    alias = "      resources: &resources\n" + resources[len("      resources:\n"):] if i == 0 \
        else "      resources: *resources\n"
    return text.replace(resources, alias, 1)


def write_pods(path, count, urls=False):
    rng = random.Random(24)
    with open(path, "w") as f:
        f.write("# kubectl get pods -A -o yaml (made by tools/make_big_yaml.py)\n")
        f.write("apiVersion: v1\nitems:\n")
        for i in range(count):
            f.write(pod(i, rng, urls))
        f.write('kind: List\nmetadata:\n  resourceVersion: ""\n')


COMPOSE_HEAD = """# docker-compose.yaml (made by tools/make_big_yaml.py --compose)
version: "3.9"

x-defaults: &defaults
  restart: unless-stopped
  logging:
    driver: json-file
    options: {max-size: 10m, max-file: "3"}
  networks: [backend]

x-env: &env
  TZ: UTC
  LOG_LEVEL: info
  FEATURE_FLAGS: "a,b,c"

x-healthcheck: &health
  healthcheck:
    test: ["CMD", "curl", "-f", "http://localhost/health"]
    interval: 30s
    retries: 3

services:
"""


# What the anchors of COMPOSE_HEAD hold, as written out in a service.
HEALTH = """    healthcheck:
      test: ["CMD", "curl", "-f", "http://localhost/health"]
      interval: 30s
      retries: 3
"""
DEFAULTS = """    logging:
      driver: json-file
      options: {max-size: 10m, max-file: "3"}
    networks: [backend]
"""
ENV = """      TZ: UTC
      LOG_LEVEL: info
      FEATURE_FLAGS: "a,b,c"
"""


def service(i, rng, written_out=False):
    app = APPS[i % len(APPS)]
    name = f"{app}-{i}"
    merge = "[*health, *defaults]" if i % 10 == 0 else "*defaults"
    restart = "    restart: always   # this one never stops\n" if i % 7 == 0 else ""
    merged = f"    <<: {merge}\n"
    env = "      <<: *env\n"
    if written_out:
        # Where the merge's entries go: its place; a key the map writes
        # itself (restart) stays where the map writes it.
        merged = (HEALTH if i % 10 == 0 else "") + ("" if restart else "    restart: unless-stopped\n") + DEFAULTS
        env = ENV
    return f"""  # service {i}
  {name}:
{merged}{restart}    image: registry.example.com/{app}:{i % 17}.{i % 5}.{rng.randrange(100)}
    command: ["/bin/{app}", "--port", "{8000 + i % 1000}"]
    environment:
{env}      SERVICE_NAME: {name}
      REPLICA: "{i % 3}"
    ports:
      - "{10000 + i % 50000}:{8000 + i % 1000}"
    depends_on: [{APPS[(i + 1) % len(APPS)]}-{max(0, i - 1)}]
    labels:
      com.example.team: {NAMESPACES[i % len(NAMESPACES)]}
      com.example.tier: {"front" if i % 2 else "back"}
"""


def write_compose(path, count, written_out=False):
    rng = random.Random(33)
    with open(path, "w") as f:
        head = COMPOSE_HEAD
        if written_out:
            head = head.replace(" &defaults", "").replace(" &env", "").replace(" &health", "")
        f.write(head)
        for i in range(count):
            f.write(service(i, rng, written_out))
        f.write("\nnetworks:\n  backend: {}\n")


def write_ints(path, count):
    rng = random.Random(6)
    per_line = 12
    with open(path, "w") as f:
        f.write("[\n")
        for start in range(0, count, per_line):
            line = ", ".join(str(rng.randrange(10_000_000)) for _ in range(min(per_line, count - start)))
            f.write("  " + line + (",\n" if start + per_line < count else "\n"))
        f.write("]\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--pods", type=int, default=40_000)
    ap.add_argument("--ints", type=int, default=6_000_000)
    ap.add_argument("--urls", action="store_true", help="also write urls.yaml")
    ap.add_argument("--compose", type=int, default=0, help="services of compose.yaml (0: none)")
    ap.add_argument("--written-out", action="store_true",
                    help="also compose_written_out.yaml: compose.yaml's data, merges written out")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    files = [("pods.yaml", write_pods, args.pods), ("ints.yaml", write_ints, args.ints)]
    if args.urls:
        files.append(("urls.yaml", lambda path, n: write_pods(path, n, urls=True), args.pods))
    if args.compose:
        files.append(("compose.yaml", write_compose, args.compose))
        if args.written_out:
            files.append(("compose_written_out.yaml",
                          lambda path, n: write_compose(path, n, written_out=True), args.compose))
    for name, write, count in files:
        path = os.path.join(args.outdir, name)
        write(path, count)
        print(f"{path}: {count:,} items, {os.path.getsize(path):,} bytes")


if __name__ == "__main__":
    main()
