#!/usr/bin/env python3
"""Start-up of a `scrapy` command: CPU time of `scrapy jobs --help` and what `python -X importtime` charges to the
project's own modules (gigflow.*, with everything they import), best of N runs.

usage: python bench/startup_bench.py [--runs 7] [--before GIT_REV]

Scrapy imports every command module of COMMANDS_MODULE at start-up, whichever command runs, so a command module's
top-level imports are paid by every command. ``--before REV`` measures that git revision too (exported with
``git archive``), alternating with this tree run by run, so one run shows both.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["jobs", "--help"]


def measure(tree: Path) -> tuple[float, float]:
    """(CPU seconds, milliseconds importtime charges to top-level gigflow imports) of one command. CPU time, not
    wall time: on a shared machine the wall clock mostly measures the other processes."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    child = subprocess.Popen([sys.executable, "-m", "scrapy", *COMMAND], cwd=tree, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"scrapy {' '.join(COMMAND)} failed in {tree}")
    wall = usage.ru_utime + usage.ru_stime
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "scrapy", *COMMAND], cwd=tree, env=env,
                          check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ours = 0
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if name.startswith(" gigflow"):  # one space: imported by a module that is not ours
                ours += int(cumulative)
    return wall, ours / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", help="also measure this git revision (e.g. main)")
    args = parser.parse_args()
    trees = {"after (this tree)": ROOT}
    with tempfile.TemporaryDirectory() as folder:
        if args.before:
            archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(folder, filter="data")
            trees = {f"before ({args.before})": Path(folder), **trees}
        results: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
        for _ in range(args.runs):
            for label, tree in trees.items():
                results[label].append(measure(tree))
    print(f"scrapy {' '.join(COMMAND)}, best of {args.runs}:")
    for label, runs in results.items():
        print(f"  {label:28} CPU {min(w for w, _ in runs):.2f} s, gigflow imports {min(o for _, o in runs):.0f} ms")
    if args.before:
        (before, after) = (min(w for w, _ in runs) for runs in results.values())
        print(f"  start-up after / before: {after / before:.2f}")


if __name__ == "__main__":
    main()
