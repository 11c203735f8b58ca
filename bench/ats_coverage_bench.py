"""ATS payload coverage over the shared corpus: `python bench/ats_coverage_bench.py [--corpus DIR] [--json]`.

For every ATS payload (corpus/ats/<provider>/*, plus the Personio and Teamtailor feeds) prints the payload's own
job count (read from the payload's layout, independently of the adapters), the jobs gigflow extracts, and how many
of them carry a title, employer, location, date, apply URL and description. The URL given to each payload is the
one its MANIFEST row records, else the board's public endpoint; no company is given, so an employer here comes from
the payload or the board's name (a crawl adds the source's company). `make bench-adapters` runs it after the
throughput bench.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gigflow.adapters import extract  # noqa: E402
from gigflow.adapters.ats import PROVIDERS  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
FIELDS = ("title", "employer", "location", "date_posted", "apply_url", "description")
FETCHED_AT = datetime(2026, 12, 1, tzinfo=timezone.utc)
# Payloads whose MANIFEST row records no request: where such a payload is served from.
KNOWN_URLS = {
    "ats/workday/nvidia.json": "https://nvidia.wd5.myworkdayjobs.com/wday/cxs/nvidia/NVIDIAExternalCareerSite/jobs",
    "ats/jibe/jcpenney.json": "https://jobs.jcp.com/api/jobs?page=1&limit=10",
    "ats/personio/threadi-example.xml": "https://threadi.jobs.personio.de/xml",
    "ats/personio/threadi-positions.xml": "https://threadi.jobs.personio.de/xml",
    "feeds/personio-rtc-rath__1.xml": "https://rtc-rath.jobs.personio.de/xml",
    "ats/radancy/veolia.json": "https://jobs.veolia.com/fr/search-jobs/results?CurrentPage=1",
    "ats/teamtailor/api-v1-jobs.json": "https://api.teamtailor.com/v1/jobs",
    "ats/teamtailor/api-v1-job.json": "https://api.teamtailor.com/v1/jobs/26",
    "feeds/teamtailor-leaseweb__1.json": "https://leaseweb.teamtailor.com/jobs.json",
    "feeds/teamtailor-tibber__1.json": "https://tibber.teamtailor.com/jobs.json",
}


def own_count(provider: str, body: bytes) -> int:
    """How many jobs the payload itself holds, by its provider's layout."""
    if provider == "personio":
        return len(re.findall(rb"<position>", body))
    data = json.loads(body)
    if provider == "radancy":
        return len(set(re.findall(r'data-job-id="(\d+)"', data.get("results") or "")))
    if provider == "lever" or provider == "breezy":
        return len(data) if isinstance(data, list) else 1
    if provider == "workable":  # one shortcode repeated per location is one job
        jobs = data.get("jobs") or data.get("results")
        return len({j.get("shortcode") or j.get("id") for j in jobs}) if isinstance(jobs, list) else int("title" in data)
    if provider == "teamtailor":
        return len(data["items"]) if "items" in data else len(data["data"]) if isinstance(data["data"], list) else 1
    if provider == "jibe":
        return len(data["jobs"])
    lists = {"greenhouse": "jobs", "recruitee": "offers", "smartrecruiters": "content", "ashby": "jobs",
             "workday": "jobPostings", "bamboohr": "result", "pinpoint": "data", "manatal": "results"}
    key = lists[provider]
    if isinstance(data.get(key), list):
        return len(data[key])
    one = {"greenhouse": "absolute_url", "recruitee": "offer", "smartrecruiters": "releasedDate",
           "workday": "jobPostingInfo", "bamboohr": "result"}
    return int(bool(data.get(one.get(provider, ""))))


def payloads(corpus: Path) -> list[tuple[str, Path, str]]:
    urls = dict(KNOWN_URLS)
    for line in (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        columns = line.split("\t")
        match = re.search(r"(?:GET|POST) (https?://\S+?);", columns[-1])
        if match:
            urls.setdefault(columns[0], match.group(1))
        elif columns[4].startswith("ats-") and columns[4][4:] in PROVIDERS and columns[0] not in urls:
            module = PROVIDERS[columns[4][4:]]
            try:
                urls[columns[0]] = module.listing_url(columns[5])
            except TypeError:
                pass
    found = [(path.parent.name, path, urls.get(str(path.relative_to(corpus)), f"https://bench.example/{path.name}"))
             for path in sorted((corpus / "ats").glob("*/*")) if path.parent.name in PROVIDERS]
    found += [(path.name.split("-")[0], path, urls.get(str(path.relative_to(corpus)), ""))
              for path in sorted((corpus / "feeds").glob("*")) if path.name.split("-")[0] in ("personio", "teamtailor")]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--json", action="store_true", help="one JSON object per file instead of the table")
    args = parser.parse_args()
    rows, started = [], time.perf_counter()
    for provider, path, url in payloads(args.corpus):
        body = path.read_bytes()
        result = extract(body, url=url, parser_key=provider, fetched_at=FETCHED_AT)
        rows.append({"provider": provider, "file": str(path.relative_to(args.corpus)), "payload": own_count(provider, body),
                     "jobs": len(result.jobs), **{field: sum(1 for j in result.jobs if getattr(j, field)) for field in FIELDS}})
    elapsed = time.perf_counter() - started
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return
    print(f"{'file':44} {'payload':>7} {'jobs':>5} " + " ".join(f"{f[:8]:>8}" for f in FIELDS))
    for row in rows:
        mark = "" if row["payload"] == row["jobs"] else "  << differs"
        print(f"{row['file'][:44]:44} {row['payload']:7d} {row['jobs']:5d} "
              + " ".join(f"{row[f]:8d}" for f in FIELDS) + mark)
    jobs = sum(r["jobs"] for r in rows)
    print(f"\n{len(rows)} files, {jobs} jobs ({sum(r['payload'] for r in rows)} in the payloads), "
          f"{sum(r['payload'] == r['jobs'] for r in rows)}/{len(rows)} files with equal counts, {elapsed:.2f} s")
    print("coverage: " + ", ".join(f"{f} {sum(r[f] for r in rows) / max(1, jobs):.0%}" for f in FIELDS))


if __name__ == "__main__":
    main()
