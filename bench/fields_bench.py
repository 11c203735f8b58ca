"""Field extraction on pages without JSON-LD, beside trafilatura's metadata: `python bench/fields_bench.py`.

Two sets, per field (title, employer, location, date posted), share of pages where value and truth contain each
other after case, width and whitespace folding (dates: the same calendar day):

- **stripped corpus** (self-supervised): every `../shared/corpus` page with exactly one JSON-LD JobPosting, with
  its JSON-LD scripts and microdata attributes removed. The truth is the JSON-LD's title, hiring organisation,
  first location and datePosted; a field the JSON-LD leaves empty is not counted.
- **SWDE dev**: the pages in `fixtures/swde/` (two job sites, `truth.tsv`; see its PROVENANCE.md).
- **devset** (`bench/devset/fields/`, hand labels in `labels.tsv`, origin of every page in `MANIFEST.tsv`): real pages
  of other sites in several languages, whole chain as a crawl sees them (JSON-LD kept). Its `split` column keeps
  some sites (and pages) aside as a hold-out that the rules were not tuned on; they are reported separately.
  A label may name alternatives separated by ` || `. Besides the four fields it scores the apply URL, the salary
  text, the closing date and the employment type where labelled. `devset stripped`: all its pages without their
  JSON-LD and microdata (the generic adapter alone).

Per site: `--sites` prints every set per site (SWDE per board, devset per site) beside trafilatura.

- **listings** (the other side of a permissive title): how many `../shared/corpus` listing pages the generic
  adapter turns into one pseudo-"job", beside how many corpus detail pages still get a title.

gigflow runs the whole adapter chain (`gigflow.adapters.extract`); trafilatura's `extract_metadata` gives title,
sitename (as employer) and date, and has no location. `--show` prints every miss.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from gigflow.adapters import extract
from gigflow.adapters.dates import normalise_date
from gigflow.adapters.jsonld import JsonLdAdapter
from gigflow.adapters.text_patterns import normalise
from gigflow.documents.html import decode_html, parse_html

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SWDE = ROOT / "fixtures" / "swde"
FIELDS = ("title", "employer", "location", "date_posted")
EXTRA = ("apply_url", "salary_text", "valid_through", "employment_type")
DEVSET = ROOT / "bench" / "devset" / "fields"
MICRODATA = ("itemprop", "itemscope", "itemtype", "itemid", "itemref")


@dataclass
class Page:
    name: str
    url: str
    body: bytes
    truth: dict[str, str]


@dataclass
class Score:
    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIELDS + EXTRA, 0))
    counted: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIELDS + EXTRA, 0))
    misses: list[str] = field(default_factory=list)


def agree(name: str, value: str | None, truth: str) -> bool:
    if " || " in truth:
        return any(agree(name, value, alternative) for alternative in truth.split(" || "))
    if not value:
        return False
    if name == "apply_url":
        return str(value).rstrip("/") == truth.rstrip("/")
    if name == "valid_through":
        return str(value)[:10] == truth[:10]
    if name == "employment_type":
        return truth in str(value).split(",")
    if name == "date_posted":
        day = normalise_date(truth)
        return bool(day) and str(value)[:10] == day[:10]
    value, truth = normalise(value), normalise(truth)
    return bool(value) and (value in truth or truth in value)


def strip_structured_data(body: bytes) -> bytes:
    """The page as a site without structured data would serve it: no JSON-LD scripts, no microdata."""
    root = parse_html(decode_html(body)[0])
    for script in root.xpath("//script[contains(translate(@type, 'LDJSON', 'ldjson'), 'ld+json')]"):
        script.getparent().remove(script)
    for element in root.iter():
        if isinstance(element.tag, str):
            for attribute in MICRODATA:
                element.attrib.pop(attribute, None)
            if element.tag == "meta" and element.get("content") is not None and \
                    not (element.get("name") or element.get("property") or element.get("http-equiv")):
                element.getparent().remove(element)  # <meta itemprop=...> carried microdata only
    return etree.tostring(root, encoding="utf-8", method="html")


def corpus_pages(corpus: Path) -> list[Page]:
    pages, adapter = [], JsonLdAdapter()
    for path in sorted(corpus.glob("html/*/*.html")) + sorted(corpus.glob("listings/*/*.html")):
        body = path.read_bytes()
        if not adapter.supports("", body):
            continue
        result = adapter.extract(body, url=f"https://corpus.example/{path.relative_to(corpus)}")
        if len(result.jobs) != 1:
            continue
        job = result.jobs[0]
        truth = {"title": job.title, "employer": job.employer, "location": job.location,
                 "date_posted": job.date_posted}
        url = job.url if job.url and job.url.startswith("http") else f"https://corpus.example/{path.name}"
        pages.append(Page(str(path.relative_to(corpus)), url, strip_structured_data(body),
                          {k: v for k, v in truth.items() if v}))
    return pages


def swde_pages(folder: Path) -> list[Page]:
    pages = []
    with open(folder / "truth.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            path = folder / row["site"] / f"{row['page']}.htm"
            body = path.read_bytes()
            base = re.search(rb'<base href="([^"]+)"', body)
            truth = {"title": row["title"], "employer": row["company"], "location": row["location"],
                     "date_posted": row["date_posted"]}
            pages.append(Page(f"{row['site']}/{row['page']}", base.group(1).decode() if base else
                              f"http://{row['site']}.example/{row['page']}", body, {k: v for k, v in truth.items() if v}))
    return pages


def devset_pages(folder: Path, split: str | None = None) -> list[Page]:
    """The hand-labelled pages of `folder` (labels.tsv, MANIFEST.tsv), of one split ("dev", "holdout") or all."""
    with open(folder / "MANIFEST.tsv", encoding="utf-8") as handle:
        urls = {row["page"]: row["url"] for row in csv.DictReader(handle, delimiter="\t")}
    # Pages labelled in place in another devset folder ("../noise/site/1.html") take their URL from its manifest.
    for manifest in folder.parent.glob("*/MANIFEST.tsv"):
        if manifest.parent != folder:
            with open(manifest, encoding="utf-8") as handle:
                for row in csv.DictReader(handle, delimiter="\t"):
                    urls.setdefault(f"../{manifest.parent.name}/{row.get('page') or row.get('local_path')}", row["url"])
    pages = []
    with open(folder / "labels.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if split and row["split"] != split:
                continue
            if not (folder / row["page"]).exists():  # no snapshot of its origin here (bench/devset/materialise.py)
                continue
            truth = {name: (row.get(name) or "").strip() for name in FIELDS + EXTRA}
            pages.append(Page(row["page"].removeprefix("../"), urls[row["page"]], (folder / row["page"]).read_bytes(),
                              {k: v for k, v in truth.items() if v}))
    return pages


def site_of(page: Page) -> str:
    parts = page.name.split("/")
    return parts[-2] if len(parts) > 1 else parts[0]


def gigflow_fields(page: Page) -> dict[str, str | None]:
    result = extract(page.body, url=page.url, content_type="text/html")
    job = result.jobs[0] if result.jobs else None
    values = {name: getattr(job, name, None) if job else None for name in FIELDS + ("apply_url", "valid_through")}
    if job is not None:
        values["salary_text"] = (job.salary_text or (job.salary.raw if job.salary else None)) \
            if hasattr(job, "salary_text") else (job.salary.raw if job.salary else None)
        values["employment_type"] = ",".join(job.employment_types) if getattr(job, "employment_types", None) \
            else job.employment_type
    return values


def trafilatura_fields(page: Page) -> dict[str, str | None]:
    from trafilatura import extract_metadata

    meta = extract_metadata(page.body.decode("utf-8", "replace"), default_url=page.url)
    if meta is None:
        return dict.fromkeys(FIELDS)
    return {"title": meta.title, "employer": meta.sitename, "location": None, "date_posted": meta.date,
            "apply_url": None, "salary_text": None, "valid_through": None, "employment_type": None}


def score(pages: list[Page], system) -> Score:
    result = Score()
    for page in pages:
        values = system(page)
        for name, truth in page.truth.items():
            result.counted[name] += 1
            if agree(name, values.get(name), truth):
                result.hits[name] += 1
            else:
                result.misses.append(f"{page.name} {name}: got {values.get(name)!r}, truth {truth!r}")
    return result


def job_pages(corpus: Path, kind: str, generic_only: bool) -> tuple[int, int]:
    """(pages of `kind` ("listings" or "html") for which the chain (or its generic adapter alone) yields a job,
    pages)."""
    paths = sorted(corpus.glob(f"{kind}/*/*.html"))
    found = 0
    for path in paths:
        result = extract(path.read_bytes(), url=f"https://corpus.example/{path.relative_to(corpus)}",
                         content_type="text/html")
        found += bool(result.jobs) and (not generic_only or result.parser_key == "generic-html")
    return found, len(paths)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--swde", type=Path, default=SWDE)
    parser.add_argument("--devset", type=Path, default=DEVSET)
    parser.add_argument("--show", action="store_true", help="print every miss")
    parser.add_argument("--no-sites", dest="sites", action="store_false", help="totals only, no per-site rows")
    args = parser.parse_args()
    swde = swde_pages(args.swde)
    if args.devset.is_dir():
        from devset.materialise import materialise_all

        materialise_all()
    sets = {"stripped corpus": corpus_pages(args.corpus) if args.corpus.is_dir() else [],
            "SWDE dev": swde,
            "devset dev": devset_pages(args.devset, "dev") if args.devset.is_dir() else [],
            "devset holdout": devset_pages(args.devset, "holdout") if args.devset.is_dir() else []}
    # The same pages as a site without structured data serves them: the generic adapter alone.
    sets["devset stripped"] = [Page(p.name, p.url, strip_structured_data(p.body), p.truth)
                               for p in sets["devset dev"] + sets["devset holdout"]]
    if args.sites:
        for page in swde + sets["devset dev"] + sets["devset holdout"]:
            sets.setdefault(f"  site {site_of(page)}", []).append(page)
        for page in sets["devset stripped"]:
            sets.setdefault(f"  stripped {site_of(page)}", []).append(page)
    systems = {"gigflow": gigflow_fields, "trafilatura": trafilatura_fields}
    columns = FIELDS + EXTRA
    print(f"{'set':26} {'system':12} {'pages':>5} " + " ".join(f"{name[:13]:>13}" for name in columns))
    for set_name, pages in sets.items():
        if not pages:
            continue
        for system_name, system in systems.items():
            result = score(pages, system)
            cells = []
            for name in columns:
                counted = result.counted[name]
                cells.append(f"{result.hits[name]:>2}/{counted:<2} {100 * result.hits[name] / counted:4.0f}%"
                             if counted else f"{'-':>13}")
            print(f"{set_name[:26]:26} {system_name:12} {len(pages):5d} " + " ".join(f"{c:>13}" for c in cells))
            if args.show and system_name == "gigflow" and not set_name.startswith("  "):
                for miss in result.misses:
                    print(f"    miss {miss}")
    if args.corpus.is_dir():
        listings, detail = job_pages(args.corpus, "listings", True), job_pages(args.corpus, "html", False)
        print(f"corpus listings read as one generic job: {listings[0]}/{listings[1]}; "
              f"corpus detail pages with a job: {detail[0]}/{detail[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
