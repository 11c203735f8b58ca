#!/usr/bin/env python3
"""Preparation benchmark: gigflow's parse + prepare + Markdown against trafilatura and a bare lxml round trip.

usage: python bench/prepare_bench.py [--corpus ../shared/corpus] [--rounds 1] [--repeats 3]

Every HTML page under the corpus (html/ and listings/) goes, as raw bytes, through each system; each system runs
in its own child process so its peak memory (max RSS) is its own. The systems take turns `--repeats` times and
each keeps its best run, so a burst of load from other processes does not decide the ratios. The last line reads
`speedup_vs_trafilatura: X.XX`: gigflow pages/s (default converter) divided by trafilatura's, same run.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ["gigflow:html-to-markdown", "gigflow:markdownify", "trafilatura", "lxml"]


def load_pages(corpus: Path) -> list[tuple[str, bytes]]:
    paths = sorted(corpus.glob("html/*/*.html")) + sorted(corpus.glob("listings/*/*.html"))
    return [(str(p.relative_to(corpus)), p.read_bytes()) for p in paths]


def make_runner(system: str):
    if system.startswith("gigflow:"):
        sys.path.insert(0, str(ROOT))
        from gigflow.documents import DocumentClient

        client = DocumentClient(system.split(":", 1)[1])
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


def run_child(system: str, corpus: Path, rounds: int) -> dict:
    """Time one system on every page, `rounds` times; per-page time is the median over rounds."""
    pages = load_pages(corpus)
    run = make_runner(system)
    for name, body in pages[:5]:  # warm imports and caches outside the clock
        run(name, body)
    per_page = {name: [] for name, _ in pages}
    started = time.perf_counter()
    for _ in range(rounds):
        for name, body in pages:
            t0 = time.perf_counter()
            run(name, body)
            per_page[name].append((time.perf_counter() - t0) * 1000)
    total = time.perf_counter() - started
    ms = sorted(statistics.median(times) for times in per_page.values())
    return {"system": system, "pages": len(pages), "pages_per_s": len(pages) * rounds / total,
            "median_ms": statistics.median(ms), "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))],
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the corpus per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per system, taking turns; the best counts")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_child(args.child, args.corpus, args.rounds)))
        return
    if not (args.corpus / "html").is_dir():
        raise SystemExit(f"no corpus at {args.corpus} (expected html/<site>/<n>.html); pass --corpus")
    sys.path.insert(0, str(ROOT))
    from gigflow.documents import DEFAULT_CONVERTER

    rows: dict[str, dict] = {}
    for _ in range(args.repeats):
        for system in SYSTEMS:
            child = subprocess.run([sys.executable, __file__, "--child", system, "--corpus", str(args.corpus),
                                    "--rounds", str(args.rounds)], capture_output=True, text=True, check=False)
            if child.returncode != 0:
                raise SystemExit(f"{system} failed:\n{child.stderr[-3000:]}")
            row = json.loads(child.stdout.strip().splitlines()[-1])
            best = rows.get(system)
            if best is None or row["pages_per_s"] > best["pages_per_s"]:
                row["peak_mb"] = max(row["peak_mb"], best["peak_mb"]) if best else row["peak_mb"]
                rows[system] = row
            else:
                best["peak_mb"] = max(best["peak_mb"], row["peak_mb"])
    gigflow = rows[f"gigflow:{DEFAULT_CONVERTER}"]
    print(f"{'system':36} {'pages':>5} {'pages/s':>8} {'median ms':>9} {'p95 ms':>8} {'peak MB':>8} "
          f"{'vs trafilatura':>14} {'vs lxml':>8}")
    for system, row in rows.items():
        label = f"{system}{' (default)' if row is gigflow else ''}"
        print(f"{label:36} {row['pages']:>5} {row['pages_per_s']:>8.1f} {row['median_ms']:>9.2f} {row['p95_ms']:>8.2f} "
              f"{row['peak_mb']:>8.1f} {row['pages_per_s'] / rows['trafilatura']['pages_per_s']:>13.2f}x "
              f"{row['pages_per_s'] / rows['lxml']['pages_per_s']:>7.2f}x")
    slowdown = rows["lxml"]["pages_per_s"] / gigflow["pages_per_s"]
    print(f"\nbest of {args.repeats} runs of {args.rounds} pass(es) each; corpus: {args.corpus}")
    print(f"gigflow ({DEFAULT_CONVERTER}) is {slowdown:.2f}x slower than bare lxml parse+serialize (target: within 4x)")
    print(f"speedup_vs_trafilatura: {gigflow['pages_per_s'] / rows['trafilatura']['pages_per_s']:.2f}")


if __name__ == "__main__":
    main()
