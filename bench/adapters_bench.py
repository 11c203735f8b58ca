"""Adapter throughput over the shared corpus: `python bench/adapters_bench.py [--repeat N]`.

Prints, per content kind, files, jobs, total seconds and milliseconds per file for `gigflow.adapters.extract`
(the path a crawl takes). Speed is measured here, never in a timed test.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gigflow.adapters import extract

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
KINDS = {"html": ("html", "*/*.html"), "listings": ("listings", "*/*.html"), "ats": ("ats", "*/*.json"),
         "feeds": ("feeds", "*")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'kind':10} {'files':>5} {'jobs':>6} {'seconds':>8} {'ms/file':>8}")
    for kind, (folder, pattern) in KINDS.items():
        files = sorted((args.corpus / folder).glob(pattern))
        bodies = [(path, path.read_bytes()) for path in files]
        jobs, started = 0, time.perf_counter()
        for _ in range(args.repeat):
            jobs = 0
            for path, body in bodies:
                key = path.parent.name if kind == "ats" else None
                jobs += len(extract(body, url=f"https://bench.example/{path.name}", parser_key=key).jobs)
        elapsed = (time.perf_counter() - started) / args.repeat
        print(f"{kind:10} {len(files):5d} {jobs:6d} {elapsed:8.2f} {1000 * elapsed / max(1, len(files)):8.1f}")


if __name__ == "__main__":
    main()
