"""Entity resolution on a labelled pair set built from the real corpus (../shared/corpus/ats): precision and
recall of the resolver's decisions. The resolver's steps run in memory in the order crawls meet the sightings
(boards, then career pages, then feeds): exact keys (less those a source shares between postings), folding, and
the fuzzy choice (gigflow.maintenance.matching.best_candidate); two sightings are judged the same vacancy when they
end in one canonical job.

Each real posting of a board (the ATS adapter's extraction) is seen three ways, as an aggregator meets it:
- ats: the board payload itself (provider id, board URL, location, description);
- feed: a feed entry linking to the posting with tracking parameters, its description cut to 1,000 characters,
  no location, no id;
- page: the employer's career page at its own URL (no id in it); every second one links its apply button to the
  posting (Greenhouse: ?gh_jid=ID), the others must be matched by title, location and description alone; its text
  is re-spaced and a line of page template is added.
Boards saved at several dates (codepath, gousto, premise, kroo) add real pairs of one posting across payloads.
Positives: two sightings of one posting (provider + id). Negatives: every other pair of one employer's sightings,
including the hard ones (same title, another location). Pairs across employers are not counted (they never share
a blocking key)."""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections import defaultdict
from pathlib import Path

from gigflow.adapters import extract
from gigflow.maintenance.matching import best_candidate, match_keys, simhash
from gigflow.maintenance.resolve import ambiguous_keys

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "ats"
PROVIDERS = ("greenhouse", "lever", "recruitee", "smartrecruiters", "workable")
TEMPLATE_LINE = "\n\nWe are an equal opportunity employer. Questions? Write to our recruiting team."


def postings() -> dict[str, list[dict]]:
    """employer -> each payload's postings (the same posting may appear in several saved payloads)."""
    found: dict[str, list[dict]] = defaultdict(list)
    for provider in PROVIDERS:
        for path in sorted((CORPUS / provider).glob("*.json")):
            board = path.stem.split("__")[0].removesuffix("-jobs-workable-com")
            result = extract(path.read_bytes(), url=f"https://{provider}.example/{board}",
                             content_type="application/json", parser_key=provider, company=board)
            for job in result.jobs:
                if job.title and job.external_id:
                    found[board].append({"provider": provider, "payload": path.name, **job.model_dump()})
    return found


def views(posting: dict, n: int) -> list[dict]:
    ident = f"{posting['provider']}:{posting['external_id']}"
    employer = posting["employer"] or "employer"
    slug = re.sub(r"\W+", "-", posting["title"].lower()).strip("-")
    description = posting.get("description") or ""
    ats = {"label": ident, "view": "ats", "title": posting["title"], "url": posting["url"],
           "apply_url": posting["apply_url"], "external_id": posting["external_id"],
           "parser_key": posting["provider"], "location": posting["location"], "description": description,
           "employer": employer, "source_id": f"{employer}-ats"}
    sep = "&" if "?" in (posting["url"] or "") else "?"
    feed = {"label": ident, "view": "feed", "title": posting["title"],
            "url": f"{posting['url']}{sep}utm_source=feed&utm_medium=rss" if posting["url"] else None,
            "description": description[:1000], "employer": employer, "parser_key": "feed",
            "source_id": f"{employer}-feed"}
    apply = None
    if n % 2 == 0:
        apply = (f"https://careers.{slug[:12]}.example/apply?gh_jid={posting['external_id']}"
                 if posting["provider"] == "greenhouse" else posting["url"])
    page = {"label": ident, "view": "page", "title": posting["title"],
            "url": f"https://careers.example/{employer.lower().replace(' ', '-')}/jobs/{slug}-{n}",
            "apply_url": apply, "location": posting["location"], "employer": employer, "parser_key": "jsonld",
            "source_id": f"{employer}-page",
            "description": " ".join(description.split()) + TEMPLATE_LINE}
    return [ats, feed, page]


def simulate(sightings: list[dict], threshold: float) -> list[int]:
    """The resolver over one employer's sightings in arrival order; returns each sighting's canonical job."""
    by_source: dict[str, list[dict]] = defaultdict(list)
    for s in sightings:
        by_source[s["source_id"]].append(s)
    ambiguous = {source: ambiguous_keys(group) for source, group in by_source.items()}
    canonical: list[int] = []
    members: dict[int, list[int]] = defaultdict(list)
    owner: dict[str, set[int]] = defaultdict(set)
    for i, s in enumerate(sightings):
        keys = [k for k in match_keys(s) if k not in ambiguous[s["source_id"]]]
        hits = {c for k in keys for c in owner[k]}
        if hits:
            target = min(hits)
            for other in hits - {target}:  # fold: its sightings and keys move to the target
                for j in members.pop(other):
                    canonical[j] = target
                    members[target].append(j)
                for k in owner:
                    if other in owner[k]:
                        owner[k] = (owner[k] - {other}) | {target}
        else:
            chosen = best_candidate(s, {c: [sightings[j] for j in js] for c, js in members.items() if js}, threshold)
            target = chosen[0] if chosen else i
        canonical.append(target)
        members[target].append(i)
        for k in keys:
            owner[k].add(target)
    return canonical


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threshold", type=float, default=0.9, help="MAINTENANCE_MATCH_THRESHOLD")
    parser.add_argument("--max-postings", type=int, default=60, help="postings per employer (pairs grow n^2)")
    parser.add_argument("--show", action="store_true", help="list the wrong decisions")
    args = parser.parse_args()
    if not CORPUS.exists():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    tp = fp = fn = tn = hard = hard_fp = exact_found = 0
    by_view: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for employer, jobs in sorted(postings().items()):
        sightings = []
        for payload, group in itertools.groupby(jobs, key=lambda j: j["payload"]):
            for n, posting in enumerate(list(group)[:args.max_postings]):
                # a later saved payload of a board is another crawl of the board only
                sightings.extend(views(posting, n)[:1] if "__" in payload else views(posting, n))
        sightings.sort(key=lambda s: ("ats", "page", "feed").index(s["view"]))
        for s in sightings:
            s["simhash"] = simhash(s.get("description"))
        canonical = simulate(sightings, args.threshold)
        exact_only = simulate(sightings, 2.0)  # a threshold no fuzzy score reaches: exact keys alone
        for (i, a), (j, b) in itertools.combinations(enumerate(sightings), 2):
            same, truth = canonical[i] == canonical[j], a["label"] == b["label"]
            if truth:
                exact_found += exact_only[i] == exact_only[j]
            kind = "-".join(sorted((a["view"], b["view"])))
            if truth:
                by_view[kind][0] += 1
                by_view[kind][1] += same
            is_hard = (not truth and a["title"].strip().lower() == b["title"].strip().lower()
                       and (a.get("location") or "") != (b.get("location") or ""))
            hard += is_hard
            hard_fp += is_hard and same
            tp, fp, fn, tn = tp + (same and truth), fp + (same and not truth), fn + (truth and not same), \
                tn + (not same and not truth)
            if args.show and same != truth:
                print(f"{'FP' if same else 'FN'} {employer}: {a['view']} {a['title']!r} @ {a.get('location')!r} "
                      f"~ {b['view']} {b['title']!r} @ {b.get('location')!r}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"pairs: {tp + fn} positive, {fp + tn} negative ({hard} hard: same title, other location)")
    print(f"precision {precision:.3f} (goal >= 0.98)   recall {recall:.3f} (goal >= 0.90)   "
          f"hard negatives merged: {hard_fp}")
    print(f"  exact keys alone (no fuzzy match): recall {exact_found / (tp + fn):.3f}")
    for kind, (total, found) in sorted(by_view.items()):
        print(f"  recall {kind:10s} {found / total:.3f} of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
