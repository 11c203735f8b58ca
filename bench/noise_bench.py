"""Noise-filter benchmark, leave-one-page-out, on every labelled site we have.

Sites come from three places, each with html pages and a facts.jsonl (see ../shared/corpus/README.md):
- ``../shared/corpus`` and ``../shared/corpus-extra`` (read where they lie, never copied into the project);
- ``bench/devset/noise`` (our development set: verbatim pages from public repositories, origin in MANIFEST.tsv);
  the sites named in its HOLDOUT file are our own hold-out, those in HOLDOUT2, HOLDOUT3 ... further ones (each
  fresh until a round studies it, see docs/noise-history.md), each reported
  on its own summary line and all left out by --no-holdout.

For each site with 3+ labelled pages, each of its first ``--max-eval`` pages is prepared with a filter learned on
up to ``--max-train`` *other* pages of that site (rules classifier; the model too when GIGFLOW_NOISE_MODEL is set).
A site with only 3 pages cannot leave one out (learning needs 3), so there the filter is learned on all 3 pages and
the row is marked ``in-sample``. Beside it, on the same pages: gigflow without a filter, the main-content cleanup
(onlyMainContent) and trafilatura. Facts kept and template noise removed are scored exactly as
../shared/tools/eval_markdown.py scores them, per site and overall.

``--orders`` asks another question: does the filter depend on which sample is read first? `scrapy learn-noise` and
`scrapy sources try` read the pages in the order they were stored or crawled. Each site's first ``--max-train`` pages
are learned on once with each of them first, every one of those pages is prepared with that filter (in-sample),
and the facts lost beyond what gigflow loses without a filter are counted per first page (rules classifier).

usage: python bench/noise_bench.py [--max-train 6] [--max-eval 8] [--sites a,b] [--no-holdout] [--json OUT]
       python bench/noise_bench.py --orders [--sites a,b] [--json OUT]
       python bench/noise_bench.py --eval-cmd   (the --gigflow CMD protocol of eval_markdown.py: stdin -> stdout)
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DEVSET = ROOT / "bench" / "devset" / "noise"
sys.path.insert(0, str(ROOT))

from gigflow.documents import prepare_html  # noqa: E402
from gigflow.noise.learn.classifier import make_classifier  # noqa: E402
from gigflow.noise.learn.learner import learn_noise_filter  # noqa: E402
from gigflow.noise.learn.settings import NoiseSettings  # noqa: E402
from gigflow.noise.learn.training import TrainingPage  # noqa: E402

PLACEHOLDER_URL = "https://unknown.invalid/page.html"


def load_eval(path: Path):
    """eval_markdown.py is imported by path at run time; it is not part of the project."""
    spec = importlib.util.spec_from_file_location("eval_markdown", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def page_number(page: str) -> int:
    stem = Path(page).stem
    return int(stem) if stem.isdigit() else 0


@dataclass
class Site:
    name: str
    group: str  # corpus | corpus-extra | devset | holdout | holdout2 | holdout3 ...
    root: Path  # the directory the pages' "page" paths are relative to
    pages: list = field(default_factory=list)

    def path(self, page) -> str:
        return str(self.root / page["page"])


# devset files HOLDOUT, HOLDOUT2, HOLDOUT3 ...: site names, one a line; each file is a group of its own, in number order
HOLDOUT_GROUPS = tuple(sorted((p.name.lower() for p in DEVSET.glob("HOLDOUT*") if re.fullmatch(r"HOLDOUT\d*", p.name)),
                              key=lambda name: int(name[len("holdout"):] or 1)))


def _names(path: Path) -> set[str]:
    return {line.strip() for line in path.read_text().splitlines() if line.strip()} if path.exists() else set()


def load_sites(corpus_dirs, devset: Path | None, min_pages: int = 3) -> list[Site]:
    """Sites with at least ``min_pages`` labelled pages, pages in number order."""
    sources = [(Path(d), Path(d).name) for d in corpus_dirs]
    if devset is not None and (devset / "facts.jsonl").exists():
        sources.append((devset, "devset"))
    holdouts = {group: _names(devset / group.upper()) if devset is not None else set() for group in HOLDOUT_GROUPS}
    sites = []
    for root, group in sources:
        facts = root / "facts.jsonl"
        if not facts.exists():
            continue
        by_site = collections.defaultdict(list)
        for line in facts.read_text(encoding="utf-8").splitlines():
            if line.strip():
                page = json.loads(line)
                if page.get("facts") and (root / page["page"]).exists():  # a devset page without its snapshot
                    by_site[Path(page["page"]).parent.name].append(page)
        for name, pages in sorted(by_site.items()):
            if len(pages) >= min_pages:
                pages.sort(key=lambda p: page_number(p["page"]))
                held = [g for g in HOLDOUT_GROUPS if name in holdouts[g]] if group == "devset" else []
                sites.append(Site(name, held[0] if held else group, root, pages))
    return sites


def learn(paths_and_urls, kind: str, max_train: int):
    """Learn on up to ``max_train`` pages; returns (filter or None, report or None, seconds)."""
    settings = NoiseSettings.from_settings()
    train = [TrainingPage(url=url or PLACEHOLDER_URL, body=Path(path).read_bytes()) for path, url in paths_and_urls[:max_train]]
    if len(train) < settings.min_samples:
        return None, None, 0.0
    started = time.perf_counter()
    result = learn_noise_filter(train, None, make_classifier(kind, settings), config_hash="bench", settings=settings)
    return result.filter, result.report, time.perf_counter() - started


def gigflow_markdown(path: str, url: str | None, noise_filter) -> str:
    return prepare_html(Path(path).read_bytes(), url or PLACEHOLDER_URL, noise_filter=noise_filter).markdown


def score(ev, pages, outputs, template):
    kept = total = 0
    noise_total = noise_left = 0
    for p in pages:
        md = outputs.get(p["page"], "") or ""
        nmd = ev.norm_md(md)
        for f in p["facts"]:
            text = f["text"] if f["kind"] == "apply_url" else ev.norm_fact(f["text"])
            total += 1
            kept += text in (md if f["kind"] == "apply_url" else nmd)
        for line in template.get(p["page"], []):
            noise_total += len(line)
            noise_left += len(line) if line in nmd else 0
    return kept, total, noise_total - noise_left, noise_total


def lost_facts(ev, pages, outputs) -> list[str]:
    out = []
    for p in pages:
        md = outputs.get(p["page"], "") or ""
        nmd = ev.norm_md(md)
        for f in p["facts"]:
            text = f["text"] if f["kind"] == "apply_url" else ev.norm_fact(f["text"])
            if text not in (md if f["kind"] == "apply_url" else nmd):
                out.append(f"{p['page']}: {f['kind']} {f['text'][:60]!r}")
    return out


def site_templates(ev, corpus: Path, pages):
    """Template noise lines per page, exactly as eval_markdown.main computes them."""
    lines = {p["page"]: ev.lines_of(ev.load_tree(str(corpus / p["page"]), p.get("url"))) for p in pages}
    counts = collections.Counter()
    for p in pages:
        counts.update({t for t, _ in lines[p["page"]]})
    need = max(3, int(0.6 * len(pages) + 0.999))
    template = {}
    for p in pages:
        facts = [ev.norm_fact(f["text"]) for f in p["facts"] if f["kind"] != "apply_url"]
        template[p["page"]] = sorted({t for t, boiler in lines[p["page"]] if boiler and counts[t] >= need
                                      and not any(f and (f in t or t in f) for f in facts)})
    return template


def leave_one_out(site: Site, kind: str, max_train: int, max_eval: int):
    """{page: markdown} for the evaluated pages, each prepared with a filter learned on other pages of its site.

    Returns (outputs, rules per filter, learning seconds, in_sample)."""
    evaluated = site.pages[:max_eval]
    everything = [(site.path(p), p.get("url")) for p in site.pages]
    min_samples = NoiseSettings.from_settings().min_samples
    outputs, rules, seconds = {}, [], 0.0
    in_sample = len(site.pages) - 1 < min_samples
    if in_sample:  # too few pages to leave one out: one filter learned on every page
        noise_filter, _report, seconds = learn(everything, kind, max_train)
        rules.append(len(noise_filter.removal_rules()) if noise_filter else 0)
        for p in evaluated:
            outputs[p["page"]] = gigflow_markdown(site.path(p), p.get("url"), noise_filter)
        return outputs, rules, seconds, True
    for i, p in enumerate(evaluated):
        others = [pu for j, pu in enumerate(everything) if j != i]
        noise_filter, _report, s = learn(others, kind, max_train)
        seconds += s
        rules.append(len(noise_filter.removal_rules()) if noise_filter else 0)
        outputs[p["page"]] = gigflow_markdown(site.path(p), p.get("url"), noise_filter)
    return outputs, rules, seconds, False


def baseline(ev, site: Site, pages, system: str) -> dict:
    fn = ev.sys_trafilatura if system == "trafilatura" else ev.sys_onlymain
    outputs = {}
    for p in pages:
        try:
            outputs[p["page"]] = fn(ev.load_tree(site.path(p), p.get("url")), p.get("url"))
        except Exception:  # a failing baseline keeps nothing, as in eval_markdown
            outputs[p["page"]] = ""
    return outputs


def selected_sites(args) -> list[Site]:
    """The sites the command line asks for (the devset's pages laid out first)."""
    if not args.no_devset:
        from devset.materialise import materialise_all

        materialise_all()
    sites = load_sites([d for d in (args.corpus, args.corpus_extra) if d], None if args.no_devset else Path(args.devset))
    if args.sites:
        wanted = set(args.sites.split(","))
        sites = [s for s in sites if s.name in wanted]
    if args.no_holdout:
        sites = [s for s in sites if s.group not in HOLDOUT_GROUPS]
    return sites


def bench(args) -> int:
    ev = load_eval(Path(args.eval_script))
    sites = selected_sites(args)
    kinds = ["rules"] + (["openai"] if NoiseSettings.from_settings().model else [])
    systems = [f"gigflow-{k}" for k in kinds] + ["gigflow-nofilter", "main-content", "trafilatura"]
    totals: dict = {}
    rows = []
    print(f"{'site':22} {'group':12} {'system':17} {'pages':>5} {'facts kept':>12} {'noise removed':>13} "
          f"{'rules':>9} {'learn s':>7}")
    for site in sites:
        template = site_templates(ev, site.root, site.pages)
        evaluated = site.pages[:args.max_eval]
        for system in systems:
            rules, seconds, note = "-", 0.0, ""
            if system == "gigflow-nofilter":
                outputs = {p["page"]: gigflow_markdown(site.path(p), p.get("url"), None) for p in evaluated}
            elif system.startswith("gigflow-"):
                outputs, counts, seconds, in_sample = leave_one_out(site, system.split("-", 1)[1], args.max_train,
                                                                     args.max_eval)
                rules = f"{min(counts)}-{max(counts)}" if counts else "-"
                note = " in-sample" if in_sample else ""
            else:
                outputs = baseline(ev, site, evaluated, system)
            kept, total, removed, noise = score(ev, evaluated, outputs, template)
            group = site.group if site.group in HOLDOUT_GROUPS else "dev"
            for key in dict.fromkeys((("all", system), (group, system), (site.group, system))):  # hold-out: once
                acc = totals.setdefault(key, [0, 0, 0, 0])
                for i, v in enumerate((kept, total, removed, noise)):
                    acc[i] += v
            row = {"site": site.name, "group": site.group, "system": system, "pages": len(evaluated), "kept": kept,
                   "facts": total, "noise_removed_chars": removed, "noise_chars": noise, "rules": rules,
                   "learn_seconds": round(seconds, 3), "in_sample": bool(note)}
            if args.verbose and kept < total:
                row["lost"] = lost_facts(ev, evaluated, outputs)
            rows.append(row)
            print(f"{site.name:22} {site.group:12} {system:17} {len(evaluated):>5} {kept:>5}/{total:<6} "
                  f"{_ratio(removed, noise):>13} {rules:>9} {seconds:>7.2f}{note}")
            for line in row.get("lost", []):
                print(f"{'':24}lost: {line}")
    print()
    print(f"{'summary':22} {'':12} {'system':17} {'':>5} {'facts kept':>12} {'noise removed':>13}")
    for group in ("dev", *HOLDOUT_GROUPS, "corpus", "corpus-extra", "devset", "all"):
        for system in systems:
            if (group, system) in totals:
                kept, total, removed, noise = totals[(group, system)]
                print(f"{group:22} {'':12} {system:17} {'':>5} {kept:>5}/{total:<6} {_ratio(removed, noise):>13}"
                      f"   retention {_ratio(kept, total)}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "totals": {f"{g}/{s}": v for (g, s), v in totals.items()}},
                                              indent=1))
    return 0


def orders(args) -> int:
    """Facts each site loses (beyond no filter) with each of its pages read first: the filter must not depend on
    the order of its samples."""
    ev = load_eval(Path(args.eval_script))
    sites = selected_sites(args)
    rows, depends = [], 0
    print(f"{'site':22} {'group':12} facts lost with page k first (k = 1, 2, ...)")
    for site in sites:
        pages = site.pages[:args.max_train]
        everything = [(site.path(p), p.get("url")) for p in pages]
        plain = {p["page"]: gigflow_markdown(site.path(p), p.get("url"), None) for p in pages}
        lost_anyway = set(lost_facts(ev, pages, plain))
        lost_by_first = []
        for first in range(len(pages)):
            order = [everything[first]] + [e for j, e in enumerate(everything) if j != first]
            noise_filter, _report, _seconds = learn(order, "rules", args.max_train)
            outputs = {p["page"]: gigflow_markdown(site.path(p), p.get("url"), noise_filter) for p in pages}
            lost_by_first.append([line for line in lost_facts(ev, pages, outputs) if line not in lost_anyway])
        counts = [len(lost) for lost in lost_by_first]
        depends += len(set(counts)) > 1
        rows.append({"site": site.name, "group": site.group, "lost_by_first": counts,
                     "lost": sorted({line for lost in lost_by_first for line in lost})})
        print(f"{site.name:22} {site.group:12} {counts}{'  depends on the order' if len(set(counts)) > 1 else ''}")
    print(f"\n{len(rows)} sites; the facts kept depend on the first page on {depends}; "
          f"{sum(1 for r in rows if max(r['lost_by_first'], default=0))} lose a fact with some page first")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows}, indent=1))
    return 0


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def eval_command(max_train: int) -> int:
    """eval_markdown.py's --gigflow protocol: learn per site (rules or model), prepare every page."""
    requests = json.load(sys.stdin)
    url_of = {r["html_path"]: r.get("url") for r in requests}
    filters = {}
    out = {}
    for r in requests:
        site_pages = tuple(sorted(r["site_pages"], key=page_number))
        if site_pages not in filters:
            filters[site_pages] = learn([(p, url_of.get(p)) for p in site_pages], "auto", max_train)[0]
        out[r["page"]] = gigflow_markdown(r["html_path"], r.get("url"), filters[site_pages])
    json.dump(out, sys.stdout)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(SHARED / "corpus"))
    parser.add_argument("--corpus-extra", default=str(SHARED / "corpus-extra"))
    parser.add_argument("--devset", default=str(DEVSET))
    parser.add_argument("--no-devset", action="store_true", help="only the shared corpora")
    parser.add_argument("--no-holdout", action="store_true", help="leave the hold-out sites out (while tuning)")
    parser.add_argument("--sites", default="", help="comma-separated site names")
    parser.add_argument("--eval-script", default=str(SHARED / "tools" / "eval_markdown.py"))
    parser.add_argument("--max-train", type=int, default=6)
    parser.add_argument("--max-eval", type=int, default=8, help="pages evaluated per site (each left out in turn)")
    parser.add_argument("--verbose", "-v", action="store_true", help="list the facts each system lost")
    parser.add_argument("--json", default=None)
    parser.add_argument("--eval-cmd", action="store_true")
    parser.add_argument("--orders", action="store_true", help="learn each site with each of its pages first")
    args = parser.parse_args()
    if args.eval_cmd:
        return eval_command(args.max_train)
    if args.orders:
        return orders(args)
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())
