"""What the generic HTML adapter makes of every local HTML page, as JSON: `python bench/generic_snapshot.py OUT.json`.

A refactor of `gigflow.adapters.generic` must leave this output unchanged: run it before and after and diff the two
files. Pages: `../shared/corpus*/`, `fixtures/` and `bench/devset/` (run `bench/devset/materialise.py` first), each
read twice (without and with a configured company) at a fixed fetch time. Per page: the adapter's ExtractionResult
(jobs with their evidence, confidence, warnings), every title candidate with its score and source, and the whole
chain's result (which reads the page again to check JSON-LD against it).
"""

from __future__ import annotations

import csv
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from gigflow.adapters import extract
from gigflow.adapters.generic import GenericHtmlAdapter, read_page
from gigflow.adapters.types import ExtractionContext

ROOT = Path(__file__).resolve().parent.parent
FETCHED_AT = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
CONTEXTS = {"plain": ExtractionContext(fetched_at=FETCHED_AT),
            "company": ExtractionContext(company="Configured Employer Ltd", fetched_at=FETCHED_AT)}


def pages() -> list[tuple[str, str, Path]]:
    """(name, url, path) of every HTML page, URLs from the devset manifests where they name one."""
    urls = {}
    for manifest in (ROOT / "bench/devset").glob("*/MANIFEST.tsv"):
        with open(manifest, encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                page = row.get("page") or row.get("local_path")
                urls[str((manifest.parent / page).resolve())] = row["url"]
    roots = sorted(ROOT.parent.glob("shared/corpus*")) + sorted(Path("/work/shared").glob("corpus*")) + \
        [ROOT / "fixtures", ROOT / "bench/devset"]
    found, seen = [], set()
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in (".html", ".htm") and p.is_file()):
            key = str(path.resolve())
            name = f"{root.name}/{path.relative_to(root)}"
            if key in seen:
                continue
            seen.add(key)
            found.append((name, urls.get(key) or f"https://corpus.example/{name}", path))
    return found


def snapshot(url: str, body: bytes, context: ExtractionContext) -> dict:
    result = GenericHtmlAdapter().extract(body, url=url, context=context)
    page, _ = read_page(body, url, context)
    candidates = [[c.text, c.score, c.source, page.path(c.element) if c.element is not None else None]
                  for c in page.title_candidates()] if page is not None else None
    chain = extract(body, url=url, content_type="text/html", company=context.company, fetched_at=context.fetched_at)
    return {"result": result.model_dump(mode="json"), "candidates": candidates,
            "chain": chain.model_dump(mode="json")}


def main() -> None:
    out = {}
    for name, url, path in pages():
        body = path.read_bytes()
        out[name] = {label: snapshot(url, body, context) for label, context in CONTEXTS.items()}
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False), encoding="utf-8")
    jobs = sum(len(v["plain"]["result"]["jobs"]) for v in out.values())
    print(f"{len(out)} pages, {jobs} jobs (plain context), written to {sys.argv[1]}")


if __name__ == "__main__":
    main()
