"""Safe repair of a card selector on stored listing snapshots, never on the live site.

Variants of the configured selector (simplified paths, class-token subsets) and of the structure around the
last complete run's job links in the snapshot (the nearest repeated element that holds them) are each run on
the snapshots; the one that reproduces the most of those links wins. The search is pure (``find_variants``);
``repair_source`` reads the snapshots and saves the winner as a new configuration when asked to."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import urldefrag, urljoin

from lxml import etree, html
from parsel import Selector

from gigflow.health import queries
from gigflow.patterns import search_any
from gigflow.politeness.keys import registrable_domain
from gigflow.sources import repository
from gigflow.sources.config import SourceConfig, SourceStatus, checked_css
from gigflow.sources.repository import get_source, set_status

MAX_VARIANTS = 200  # selectors tried per repair (bounded time on any snapshot)
MAX_ANCESTOR_LEVELS = 6
_IDENT = re.compile(r"^-?[_a-zA-Z][_a-zA-Z0-9-]*$")


@dataclass(frozen=True)
class Variant:
    selector: str
    origin: str  # configured | simplified path | class subset | repeated structure
    reproduced: float  # share of the target links found
    precision: float  # share of the found links that are target links
    links: int
    pages_matched: int
    cards: int  # elements the selector matched: a card selector matches about one element per job link


class RepairError(ValueError):
    pass


def card_links(doc: Selector, base_url: str, selector: str | None, patterns: list[str], exclusions: list[str]) -> set[str]:
    """What the href strategy would follow from this page with ``selector`` (same rules as its spider)."""
    scope = doc.css(selector) if selector else [doc]
    domain = registrable_domain(base_url)
    links = set()
    for node in scope:
        for href in node.css("a::attr(href)").getall():
            url = urldefrag(urljoin(base_url, href.strip())).url
            if not url.startswith(("http://", "https://")) or url == urldefrag(base_url).url:
                continue
            if registrable_domain(url) != domain:
                continue
            if patterns and not search_any(patterns, url):
                continue
            if exclusions and search_any(exclusions, url):
                continue
            links.add(url)
    return links


def _compound_variants(compound: str) -> list[tuple[str, str]]:
    """``li.card.job-card`` -> ``li.card``, ``li.job-card``, ``.card``, ``li`` (class-token subsets)."""
    match = re.match(r"^([a-zA-Z][a-zA-Z0-9]*)?((?:\.[_a-zA-Z0-9-]+)*)$", compound)
    if not match:
        return []
    tag, classes = match.group(1) or "", [c for c in match.group(2).split(".") if c]
    out = []
    for size in range(len(classes) - 1, -1, -1):
        for subset in combinations(classes, size):
            candidate = tag + "".join(f".{c}" for c in subset)
            if candidate:
                out.append((candidate, "class subset"))
    return out


def configured_variants(selector: str | None) -> list[tuple[str, str]]:
    if not selector:
        return []
    out = [(selector, "configured")]
    for part in selector.split(","):
        steps = part.replace(">", " > ").split()
        compounds = [s for s in steps if s != ">"]
        for start in range(1, len(compounds)):  # drop leading steps: the page's outer structure changed
            out.append((" ".join(compounds[start:]), "simplified path"))
        if compounds:
            out += _compound_variants(compounds[-1])
    return out


def _compound(el) -> str | None:
    tag = el.tag if isinstance(el.tag, str) else None
    if not tag or not _IDENT.match(tag):
        return None
    classes = [c for c in (el.get("class") or "").split() if _IDENT.match(c)]
    return tag + "".join(f".{c}" for c in classes)


def structure_variants(root, base_url: str, target: set[str]) -> list[tuple[str, str]]:
    """Selectors for the nearest repeated elements around the target links: for each anchor that points to a
    target link, its ancestors' tag-and-class compounds, counted; those repeated (2+) are candidates, with
    their class subsets and their parent's compound in front."""
    counts: Counter[str] = Counter()
    parents: dict[str, Counter] = {}
    for anchor in root.iter("a"):
        href = anchor.get("href")
        if not href or urldefrag(urljoin(base_url, href.strip())).url not in target:
            continue
        el, level = anchor.getparent(), 0  # the card holds the link; the link itself is no card
        while el is not None and level < MAX_ANCESTOR_LEVELS:
            compound = _compound(el)
            if compound:
                counts[compound] += 1
                parent = el.getparent()
                parent_compound = _compound(parent) if parent is not None else None
                if parent_compound:
                    parents.setdefault(compound, Counter())[parent_compound] += 1
            el, level = el.getparent(), level + 1
    out = []
    for compound, n in counts.most_common():
        if n < 2:
            continue
        out.append((compound, "repeated structure"))
        out += [(c, "repeated structure") for c, _ in _compound_variants(compound)]
        for parent, _ in (parents.get(compound) or Counter()).most_common(1):
            out.append((f"{parent} > {compound}", "repeated structure"))
    return out


def find_variants(snapshots: list[tuple[str, bytes]], selector: str | None, target: set[str],
                  patterns: list[str], exclusions: list[str]) -> list[Variant]:
    """Every variant tried on the snapshots (URL, body), best first."""
    if not target:
        raise RepairError("the last complete run recorded no job links: nothing to reproduce")
    docs = []
    candidates = configured_variants(selector)
    for url, body in snapshots:
        doc = Selector(body=body, type="html", base_url=url)
        docs.append((url, doc))
        try:
            candidates += structure_variants(html.document_fromstring(body), url, target)
        except (etree.ParserError, ValueError):
            continue
    seen, results = set(), []
    for candidate, origin in candidates:
        if candidate in seen or len(seen) >= MAX_VARIANTS:
            continue
        seen.add(candidate)
        try:
            checked_css(candidate)
        except ValueError:
            continue
        links, matched, cards = set(), 0, 0
        for url, doc in docs:
            found = card_links(doc, url, candidate, patterns, exclusions)
            matched += bool(found)
            cards += len(doc.css(candidate))
            links |= found
        hits = len(links & target)
        results.append(Variant(candidate, origin, round(hits / len(target), 3),
                               round(hits / len(links), 3) if links else 0.0, len(links), matched, cards))
    # Most reproduced, then fewest stray links, then closest to one card per link (the repeated structure, not a
    # container around it nor a bare tag that also matches navigation), then one naming a class, then the shortest.
    results.sort(key=lambda v: (-v.reproduced, -v.precision, abs(v.cards - v.links), "." not in v.selector,
                                len(v.selector)))
    return results


def repair_source(pool, source_id: str, *, min_reproduced: float, apply: bool, actor: str) -> dict:
    """Try variants of the source's href card selector on its latest listing snapshots; with ``apply``, save
    the best as a new configuration when it reproduces at least ``min_reproduced`` of the last complete run's
    job links and matches a card on every snapshot of the current listing."""
    record = get_source(pool, source_id)
    strategy = record.config.strategy("href")
    if strategy is None:
        raise RepairError(f"source {source_id!r} has no href strategy: only card selectors are repaired")
    with pool.connection() as conn:
        last = queries.last_complete_job_links(conn, source_id, "href")
        snapshots = queries.latest_snapshots(conn, source_id)
    if last is None:
        raise RepairError(f"source {source_id!r} has no complete href run to reproduce")
    if not snapshots:
        raise RepairError(f"source {source_id!r} has no stored listing snapshot; crawl it once first")
    target = set(last.job_links or [])
    variants = find_variants([(s.url, bytes(s.body)) for s in snapshots], strategy.card_selector, target,
                             strategy.job_url_patterns, strategy.exclude_patterns)
    best = variants[0] if variants else None
    report = {"source": source_id, "configured": strategy.card_selector, "target_run": last.run_id,
              "target_links": len(target), "snapshot_run": snapshots[0].run_id,
              "snapshots": [s.url for s in snapshots], "variants": [v.__dict__ for v in variants[:10]],
              "configured_result": next((v.__dict__ for v in variants if v.origin == "configured"), None),
              "applied": False}
    fits = (best is not None and best.reproduced >= min_reproduced and best.pages_matched == len(snapshots)
            and best.selector != strategy.card_selector)
    report["verdict"] = (
        "the configured selector still reproduces the links" if best and best.selector == strategy.card_selector
        else f"{best.selector!r} reproduces {best.reproduced:.0%}" if fits
        else f"no variant reproduces {min_reproduced:.0%} of the last complete run's links on every snapshot")
    if apply and fits:
        strategies = [s.model_copy(update={"card_selector": best.selector}) if s is strategy else s
                      for s in record.config.strategies]
        config = SourceConfig(**{**record.config.model_dump(), "strategies": [s.model_dump() for s in strategies]})
        with pool.connection() as conn, conn.transaction():
            saved = repository.save_strategies(conn, record.configuration_id, record.token, config.config_hash(),
                                            [s.model_dump(mode="json") for s in config.strategies])
            if not saved:
                raise RepairError("the configuration changed while the repair ran; run it again")
            status = record.config.status
            target_status = (SourceStatus.trial if status in (SourceStatus.drifting, SourceStatus.quarantined)
                             else status)
            set_status(pool, source_id, target_status,
                       f"repair applied: card selector {strategy.card_selector!r} -> {best.selector!r} "
                       f"(reproduces {best.reproduced:.0%} of run {last.run_id}'s job links)",
                       actor=actor, evidence={k: report[k] for k in ("target_run", "target_links", "snapshot_run")}
                       | {"variant": best.__dict__}, conn=conn)
        report["applied"] = True
    return report
