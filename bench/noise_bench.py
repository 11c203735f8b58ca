"""Noise-filter benchmark on the real corpus: learn per site on up to 6 pages, apply to all of that site's pages.

Prints, per same-site group (>= 3 pages with facts), the share of labelled facts kept and of template noise removed
(as ../shared/tools/eval_markdown.py defines both), for gigflow with the `rules` classifier, with the model when
GIGFLOW_NOISE_MODEL is set, for gigflow without a filter, trafilatura and a main-content cleanup.

usage: python bench/noise_bench.py [--corpus DIR] [--max-train 6] [--json OUT]
       python bench/noise_bench.py --eval-cmd   (the --gigflow CMD protocol of eval_markdown.py: stdin -> stdout)
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
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


def bench(args) -> int:
    corpus = Path(args.corpus)
    ev = load_eval(Path(args.eval_script))
    pages = [json.loads(line) for line in (corpus / "facts.jsonl").read_text().splitlines() if line.strip()]
    by_site = collections.defaultdict(list)
    for p in pages:
        if p.get("facts"):
            by_site[p["page"].split("/")[1]].append(p)
    kinds = ["rules"] + (["openai"] if NoiseSettings.from_settings().model else [])
    systems = [f"gigflow-{k}" for k in kinds] + ["gigflow-nofilter", "trafilatura", "main-content"]
    totals = {s: [0, 0, 0, 0] for s in systems}
    held: dict[str, list[int]] = {}
    rows = []
    print(f"{'site':22} {'system':17} {'train':>5} {'pages':>5} {'facts kept':>12} {'noise removed':>15} "
          f"{'rules':>5} {'learn s':>7}")
    for site, site_pages in sorted(by_site.items()):
        if len(site_pages) < 3:
            continue
        site_pages.sort(key=lambda p: page_number(p["page"]))
        template = site_templates(ev, corpus, site_pages)
        paths = [(str(corpus / p["page"]), p.get("url")) for p in site_pages]
        for system in systems:
            rules, seconds, train = "-", 0.0, "-"
            if system.startswith("gigflow-") and system != "gigflow-nofilter":
                noise_filter, report, seconds = learn(paths, system.split("-", 1)[1], args.max_train)
                rules = str(len(noise_filter.removal_rules())) if noise_filter else "-"
                train = str(min(args.max_train, len(paths)))
                outputs = {p["page"]: gigflow_markdown(path, url, noise_filter) for p, (path, url) in zip(site_pages, paths)}
            elif system == "gigflow-nofilter":
                outputs = {p["page"]: gigflow_markdown(path, url, None) for p, (path, url) in zip(site_pages, paths)}
            else:
                fn = ev.sys_trafilatura if system == "trafilatura" else ev.sys_onlymain
                outputs = {}
                for p, (path, url) in zip(site_pages, paths):
                    try:
                        outputs[p["page"]] = fn(ev.load_tree(path, url), url)
                    except Exception:  # a failing baseline keeps nothing, as in eval_markdown
                        outputs[p["page"]] = ""
            kept, total, removed, noise = score(ev, site_pages, outputs, template)
            held_out = site_pages[args.max_train:] if train != "-" else []
            if held_out:  # the pages learning never saw
                hk, ht, hr, hn = score(ev, held_out, outputs, template)
                held.setdefault(system, [0, 0, 0, 0])
                for i, v in enumerate((hk, ht, hr, hn)):
                    held[system][i] += v
            for i, v in enumerate((kept, total, removed, noise)):
                totals[system][i] += v
            rows.append({"site": site, "system": system, "kept": kept, "facts": total, "noise_removed_chars": removed,
                         "noise_chars": noise, "rules": rules, "learn_seconds": round(seconds, 3)})
            print(f"{site:22} {system:17} {train:>5} {len(site_pages):>5} {kept:>5}/{total:<6} "
                  f"{_ratio(removed, noise):>15} {rules:>5} {seconds:>7.2f}")
    print()
    print(f"{'all sites':22} {'system':17} {'':>5} {'':>5} {'facts kept':>12} {'noise removed':>15}")
    for system, (kept, total, removed, noise) in totals.items():
        print(f"{'':22} {system:17} {'':>5} {'':>5} {kept:>5}/{total:<6} {_ratio(removed, noise):>15}"
              f"   retention {_ratio(kept, total)}")
    for system, (kept, total, removed, noise) in held.items():
        print(f"{'held-out pages only':22} {system:17} {'':>5} {'':>5} {kept:>5}/{total:<6} {_ratio(removed, noise):>15}"
              f"   retention {_ratio(kept, total)}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "totals": totals}, indent=1))
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
    parser.add_argument("--eval-script", default=str(SHARED / "tools" / "eval_markdown.py"))
    parser.add_argument("--max-train", type=int, default=6)
    parser.add_argument("--json", default=None)
    parser.add_argument("--eval-cmd", action="store_true")
    args = parser.parse_args()
    if args.eval_cmd:
        return eval_command(args.max_train)
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())
