#!/usr/bin/env python3
"""Preparation benchmark: gigflow's parse + prepare + Markdown against trafilatura and a bare lxml round trip.

usage: python bench/prepare_bench.py [--corpus ../shared/corpus] [--rounds 2] [--before GIT_REV] [--skip SYSTEM]

Every HTML page under the corpus (html/ and listings/) goes, as raw bytes, through each system. Timing runs the
systems interleaved page by page in one process, so load from other processes falls on all of them alike; peak
memory (max RSS) is measured in one child process per system, so each peak is its own. The last line reads
`speedup_vs_trafilatura: X.XX`: gigflow pages/s (default converter) divided by trafilatura's, same run.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ["gigflow:direct", "gigflow:html-to-markdown", "gigflow:markdownify", "trafilatura", "lxml"]


def load_pages(corpus: Path) -> list[tuple[str, bytes]]:
    paths = sorted(corpus.glob("html/*/*.html")) + sorted(corpus.glob("listings/*/*.html"))
    return [(str(p.relative_to(corpus)), p.read_bytes()) for p in paths]


def make_runner(system: str, root: Path = ROOT):
    if system.startswith("gigflow:"):
        sys.path.insert(0, str(root))
        from gigflow.documents import DEFAULT_CONVERTER, DocumentPreparer

        converter = system.split(":", 1)[1]
        client = DocumentPreparer(DEFAULT_CONVERTER if converter == "default" else converter)
        return lambda name, body: client.prepare(body, f"https://corpus.invalid/{name}").markdown
    if system == "trafilatura":
        import trafilatura

        return lambda name, body: trafilatura.extract(body, url=f"https://corpus.invalid/{name}",
                                                      output_format="markdown", include_links=True,
                                                      include_tables=True) or ""
    if system == "lxml":
        from lxml import html as lxml_html

        return lambda name, body: lxml_html.tostring(lxml_html.document_fromstring(body), encoding="unicode")
    raise SystemExit(f"unknown system {system!r}")


class Worker:
    """A system run in a child process with its own gigflow tree (``--before``): it times each page itself, so the
    pipe is not on the clock."""

    def __init__(self, system: str, tree: Path, corpus: Path):
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.child = subprocess.Popen([sys.executable, __file__, "--worker-of", system, "--tree", str(tree),
                                       "--corpus", str(corpus)], cwd=tree, env=env, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)

    def __call__(self, index: int) -> float:
        self.child.stdin.write(f"{index}\n")
        self.child.stdin.flush()
        return float(self.child.stdout.readline())

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()


def serve_worker(system: str, tree: Path, corpus: Path) -> None:
    pages = load_pages(corpus)
    run = make_runner(system, tree)
    for line in sys.stdin:
        name, body = pages[int(line)]
        started = time.perf_counter()
        run(name, body)
        print(time.perf_counter() - started, flush=True)


def time_systems(corpus: Path, rounds: int, workers: dict[str, Worker] | None = None,
                 systems: list[str] = SYSTEMS) -> dict[str, dict]:
    """Time every system on every page, interleaved page by page (in turn-rotating order), so a burst of load
    from other processes hits all systems alike; per-page time is the median over rounds."""
    pages = load_pages(corpus)
    runners = {system: make_runner(system) for system in systems}
    workers = workers or {}
    systems = systems + list(workers)
    for index, (name, body) in enumerate(pages[:5]):  # warm imports and caches outside the clock
        for run in runners.values():
            run(name, body)
        for worker in workers.values():
            worker(index)
    per_page = {system: {name: [] for name, _ in pages} for system in systems}
    totals = dict.fromkeys(systems, 0.0)
    for round_no in range(rounds):
        for index, (name, body) in enumerate(pages):
            shift = (index + round_no) % len(systems)
            for system in systems[shift:] + systems[:shift]:
                if system in workers:
                    elapsed = workers[system](index)
                else:
                    t0 = time.perf_counter()
                    runners[system](name, body)
                    elapsed = time.perf_counter() - t0
                totals[system] += elapsed
                per_page[system][name].append(elapsed * 1000)
    rows = {}
    for system in systems:
        ms = sorted(statistics.median(times) for times in per_page[system].values())
        rows[system] = {"system": system, "pages": len(pages), "pages_per_s": len(pages) * rounds / totals[system],
                        "median_ms": statistics.median(ms), "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))]}
    return rows


def peak_memory(system: str, corpus: Path) -> float:
    """Max RSS (MB) of a process that runs only this system once over every page."""
    run = make_runner(system)
    for name, body in load_pages(corpus):
        run(name, body)
    try:  # VmHWM is this process image's own peak; ru_maxrss on Linux carries the parent's across exec
        status = Path("/proc/self/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1]) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--rounds", type=int, default=2, help="timed passes over the corpus")
    parser.add_argument("--before", help="also time the default converter of this git revision (e.g. main), and of "
                                         "this tree, each in a child process, interleaved with the rest")
    parser.add_argument("--skip", action="append", default=[], metavar="SYSTEM",
                        help="leave a system out (e.g. gigflow:markdownify, the slow one); repeatable")
    parser.add_argument("--memory-of", help=argparse.SUPPRESS)
    parser.add_argument("--worker-of", help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker_of:
        serve_worker(args.worker_of, args.tree, args.corpus)
        return
    if args.memory_of:
        print(json.dumps({"peak_mb": peak_memory(args.memory_of, args.corpus)}))
        return
    if not (args.corpus / "html").is_dir():
        raise SystemExit(f"no corpus at {args.corpus} (expected html/<site>/<n>.html); pass --corpus")
    sys.path.insert(0, str(ROOT))
    from gigflow.documents import DEFAULT_CONVERTER

    workers, folder = {}, None
    if args.before:
        folder = tempfile.TemporaryDirectory()
        archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder.name, filter="data")
        system = "gigflow:default"  # each tree's own default converter
        workers = {f"before {args.before} (child)": Worker(system, Path(folder.name), args.corpus),
                   "after: this tree (child)": Worker(system, ROOT, args.corpus)}
    systems = [system for system in SYSTEMS if system not in args.skip]
    if f"gigflow:{DEFAULT_CONVERTER}" not in systems or not {"trafilatura", "lxml"} <= set(systems):
        raise SystemExit("the default converter, trafilatura and lxml are what the figures are read against: keep them")
    rows = time_systems(args.corpus, args.rounds, workers, systems)
    for worker in workers.values():
        worker.close()
    if folder is not None:
        folder.cleanup()
    for system in systems:  # each in its own process, so the peak is its own
        child = subprocess.run([sys.executable, __file__, "--memory-of", system, "--corpus", str(args.corpus)],
                               capture_output=True, text=True, check=False)
        if child.returncode != 0:
            raise SystemExit(f"{system} failed:\n{child.stderr[-3000:]}")
        rows[system]["peak_mb"] = json.loads(child.stdout.strip().splitlines()[-1])["peak_mb"]
    gigflow = rows[f"gigflow:{DEFAULT_CONVERTER}"]
    print(f"{'system':36} {'pages':>5} {'pages/s':>8} {'median ms':>9} {'p95 ms':>8} {'peak MB':>8} "
          f"{'vs trafilatura':>14} {'vs lxml':>8}")
    for system, row in rows.items():
        label = f"{system}{' (default)' if row is gigflow else ''}"
        print(f"{label:36} {row['pages']:>5} {row['pages_per_s']:>8.1f} {row['median_ms']:>9.2f} {row['p95_ms']:>8.2f} "
              f"{row.get('peak_mb', float('nan')):>8.1f} "
              f"{row['pages_per_s'] / rows['trafilatura']['pages_per_s']:>13.2f}x "
              f"{row['pages_per_s'] / rows['lxml']['pages_per_s']:>7.2f}x")
    slowdown = rows["lxml"]["pages_per_s"] / gigflow["pages_per_s"]
    print(f"\n{args.rounds} interleaved pass(es); corpus: {args.corpus}")
    print(f"gigflow ({DEFAULT_CONVERTER}) is {slowdown:.2f}x slower than bare lxml parse+serialize (goal: within 2.5x)")
    for label in workers:
        print(f"{label}: {rows[label]['pages_per_s'] / rows['trafilatura']['pages_per_s']:.2f}x trafilatura's pages/s, "
              f"{rows['lxml']['pages_per_s'] / rows[label]['pages_per_s']:.2f}x slower than bare lxml")
    print(f"speedup_vs_trafilatura: {gigflow['pages_per_s'] / rows['trafilatura']['pages_per_s']:.2f}")


if __name__ == "__main__":
    main()
