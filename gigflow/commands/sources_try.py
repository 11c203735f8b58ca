"""`scrapy sources try FILE|URL [--pages N] [--json]`: crawl one source once into a scratch database (created on
the configured server, dropped afterwards: no lifecycle, no run, no job, no politeness state of the real sources is
touched), then show per page the fields with their evidence, the Markdown before and after a noise filter learned on
those very pages, warnings with what to do, and the source file to import."""

from __future__ import annotations

import difflib
from collections import Counter
import json
import re
import secrets
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import yaml

MIN_PAGES_TO_LEARN = 3


class TryError(ValueError):
    """The thing to try cannot be read; the message says why."""


def source_entry(target: str, source_id: str | None = None, company: str | None = None) -> tuple[dict, str]:
    """The source entry to try and where it came from (a file's first source, or a first guess for a URL)."""
    from gigflow.sources.loader import SourceFileError, load_source_file, parse_sources
    from gigflow.sources.suggest import source_for_url

    if target.startswith(("http://", "https://")):
        entry = {**source_for_url(target), **({"id": source_id} if source_id else {}),
                 **({"company": company} if company else {})}
        try:
            parse_sources([entry], "the URL's source")
        except SourceFileError as exc:
            raise TryError(str(exc)) from None
        return entry, "a first guess for the URL: an href strategy over every same-site job link"
    if not Path(target).is_file():
        raise TryError(f"{target!r} is neither an http(s) URL nor a source file")
    try:
        configs = load_source_file(target)
    except SourceFileError as exc:
        raise TryError(str(exc)) from None
    entry = configs[0].model_dump(mode="json", exclude={"status"}, exclude_none=True)
    others = f" (of {len(configs)}; the others are not tried)" if len(configs) > 1 else ""
    return entry, f"source {entry['id']!r} of {target}{others}"


@contextmanager
def scratch_database(settings):
    """A new database beside the one the settings name, made the settings' DATABASE_URL (so the crawl and every
    pool of this process use it) and dropped on the way out; yields its name and pool."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    from gigflow.db import close_pools, get_pool, url_from_settings
    from gigflow.db.queries import create_database, drop_database

    real = url_from_settings(settings)
    name = f"gigflow_try_{secrets.token_hex(4)}"
    with psycopg.connect(real, autocommit=True) as conn:
        create_database(conn, name)
    url = make_conninfo(real, dbname=name)
    settings.set("DATABASE_URL", url, priority="cmdline")
    try:
        from gigflow.db.migrate import upgrade

        # Its schema here, so that no later first use takes it for the home's database, whose Markdown files move
        # in with its migrations (the scratch one has none of the home's versions).
        pool = get_pool(url, migrate=False)
        upgrade(pool)
        yield name, pool
    finally:
        close_pools()
        with psycopg.connect(real, autocommit=True) as conn:
            drop_database(conn, name)


def crawl_once(process, settings, pool, entry: dict, pages: int) -> list[tuple[str, int]]:
    """Import the entry (active, so nothing refuses it) into ``pool`` (the database the settings name) and crawl its
    first strategy once, at most ``pages`` job pages; returns the pages that answered an error status, with it."""
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources

    import_sources(pool, parse_sources([{**entry, "status": "active"}]))
    strategy = entry["strategies"][0]["type"]
    for name, value in {"CLOSESPIDER_ITEMCOUNT": pages, "NOISE_REVIEW_ON_FINALIZE": False,
                        "MAINTENANCE_RESOLVE_AFTER_CRAWL": False, "MARKDOWN_DIR": ""}.items():
        settings.set(name, value, priority="cmdline")
    crawler = process.create_crawler(strategy)
    failed: list[tuple[str, int]] = []

    def answered(response, request, spider=None):
        if response.status >= 400 and not request.url.endswith("/robots.txt"):
            failed.append((response.url, response.status))

    from scrapy import signals

    crawler.signals.connect(answered, signal=signals.response_received)
    process.crawl(crawler, source=entry["id"])
    process.start()
    return failed


def gather(pool) -> dict:
    """What the scratch crawl found: the run, its pages with jobs and Markdown, the listing snapshots."""
    from dataclasses import asdict

    from gigflow.health.queries import listing_bodies
    from gigflow.runs.queries import latest_run_outcome
    from gigflow.store.jobs import all_jobs
    from gigflow.store.versions import all_versions, version_body

    with pool.connection() as conn:
        run = latest_run_outcome(conn)
        jobs = [asdict(job) for job in all_jobs(conn)]
        pages = []
        for version in all_versions(conn):
            stored = version_body(conn, version.id)
            pages.append({**asdict(version), "body": bytes(stored.body) if stored else b"",
                          "markdown": (stored.markdown if stored else None) or "",
                          "jobs": [j for j in jobs if j["source_version_id"] == version.id]})
        listings = [(row.url, bytes(row.body)) for row in listing_bodies(conn)]
    return {"run": asdict(run) if run else {"outcome": "not run", "stats": {}}, "pages": pages,
            "listings": listings}


def with_learned_filter(found: dict, entry: dict, settings) -> str | None:
    """Learn a noise filter on the HTML pages found (offline rules unless a model is configured) and add each
    page's Markdown with it; returns why it was not learned, or None."""
    from gigflow.documents import DocumentPreparer
    from gigflow.noise.learn.classifier import make_classifier
    from gigflow.noise.learn.learner import NoiseLearningError, learn_noise_filter
    from gigflow.noise.learn.settings import NoiseSettings
    from gigflow.noise.learn.training import TrainingPage
    from gigflow.sources import SourceConfig

    config = SourceConfig.model_validate({**entry, "status": "active"})
    strategy = config.strategies[0] if config.strategies[0].type in ("href", "click", "sitemap") else None
    html = [p for p in found["pages"] if "html" in (p["content_type"] or "") and p["body"]]
    if len(html) < MIN_PAGES_TO_LEARN:
        return f"{len(html)} HTML page(s) read; learning needs {MIN_PAGES_TO_LEARN} (try --pages 5)"
    noise = NoiseSettings.from_settings(settings)
    samples = [TrainingPage(url=p["url"], body=p["body"], source_id=entry["id"], strategy=strategy,
                            company=entry.get("company", "")) for p in html[:noise.max_samples]]
    try:
        learned = learn_noise_filter(samples, None, make_classifier(noise.classifier, noise), config_hash="",
                                     settings=noise)
    except (NoiseLearningError, ValueError) as exc:
        return f"no filter learned: {exc}"
    preparer = DocumentPreparer.from_settings(settings)
    for page in html:
        document = preparer.prepare(page["body"], page["url"], content_type=page["content_type"],
                                    strategy=strategy, noise_filter=learned.filter)
        page["markdown_filtered"] = document.markdown
        if page.get("jobs") and not document.report.errors:
            page["jobs"] = jobs_with_filter(page, document, config)
    found["filter_rules"] = len(learned.filter.removal_rules())
    return None


def jobs_with_filter(page: dict, document, config) -> list[dict]:
    """The page's jobs as they are stored once the filter is saved (maintenance.reprepare writes the same): a job
    page's description (and a title the template held) read from its Markdown with the filter."""
    from datetime import datetime, timezone

    from gigflow.adapters import extract
    from gigflow.adapters.page import page_jobs
    from gigflow.store.job_writer import fields_of

    result = extract(page["body"], url=page["url"], content_type=page["content_type"], parser_key=config.parser_key,
                     company=config.company, fetched_at=datetime.now(timezone.utc))
    jobs = [job.model_dump(mode="json", exclude_none=True) for job in page_jobs(result, document)]
    if len(jobs) != len(page["jobs"]):
        return page["jobs"]  # the crawl read it otherwise (a listing's cards): shown as crawled
    return [{**stored, "title": job.get("title", stored["title"]), "fields": fields_of(job),
             "evidence": job.get("evidence", {})} for stored, job in zip(page["jobs"], jobs)]


def warnings(found: dict, entry: dict) -> list[dict]:
    """Each with ``text`` (what was seen and what to do) and, where there is one, a ``strategy`` to use."""
    from gigflow.documents.rendering import script_rendered
    from gigflow.sources.suggest import ats_boards

    notes = []
    jobs = sum(len(p["jobs"]) for p in found["pages"])
    for url, body in found["listings"]:
        for board in ats_boards(body, url):
            notes.append({"text": f"the listing {url} links to a public {board['provider']} board "
                                  f"{board['board_id']!r}: the ats strategy reads the whole board from its API",
                          "strategy": {"type": "ats", **board}})
        rendered = script_rendered(body)
        if rendered:
            notes.append({"text": f"{'no job found and ' if jobs == 0 else ''}the listing {url} looks rendered by "
                                  f"JavaScript ({rendered}): its items appear only in a browser; use the click "
                                  f"strategy (set item_selector and detail_selector)",
                          "strategy": {"type": "click", "listing_url": url, "item_selector": "CSS OF ONE ITEM",
                                       "detail_selector": "CSS OF THE DETAIL"}})
    outcome = found["run"]["outcome"]
    stats = found["run"]["stats"] or {}
    if outcome not in ("finished", "incomplete:closespider_itemcount") and not str(outcome).startswith("incomplete:cap"):
        refused = stats.get("robotstxt/forbidden") or stats.get("gigflow/safe_fetch/refused")
        notes.append({"text": f"the run ended {outcome}" + (
            ": robots.txt or the fetch guard refused requests (for a site on this machine or a private network: "
            "-s FETCH_ALLOWED_PRIVATE_HOSTS=HOST)" if refused else "")})
    if stats.get("gigflow/safe_fetch/unexpected_content_type") and not found["pages"]:
        notes.append({"text": "the listing answered a document that is no web page (a feed, a sitemap, an API?): "
                              "`scrapy sources discover URL` reads it and proposes the strategy for it (feed or "
                              "sitemap)"})
    for url, status in found.get("failed", [])[:5]:
        notes.append({"text": f"{url} answered HTTP {status}: a listing link that fails makes every run incomplete "
                              f"(no job is ever marked gone); exclude it (exclude_patterns) or fix the link"})
    if not found["pages"]:
        notes.append({"text": "no job page was read: check the listing URL, and the card selector and "
                              "job_url_patterns of the href strategy"})
    elif jobs == 0 and not any("strategy" in n for n in notes):
        notes.append({"text": "pages were read but no job was found on them: narrow job_url_patterns to the job "
                              "pages (look at the URLs above)"})
    return notes


WORD_DIFF_LIMIT = 4000  # words in one changed block compared word by word (bounded time on hostile pages)
LINE_DIFF_LIMIT = 4000  # lines before and after compared as a sequence; beyond, as a multiset (linear)


def removed_by_filter(before: str, after: str) -> list[str]:
    """What the filter took out of the Markdown: whole lines, and from a line it shortened only the words that went
    (a line holding an apply link beside an "other jobs" link must not read as if the apply link went too)."""
    a, b = before.splitlines(), after.splitlines()
    if len(a) + len(b) > LINE_DIFF_LIMIT:
        # the line diff grows faster than the page: on a huge page, the lines the filtered Markdown lacks, in order
        left = Counter(b)
        removed = []
        for line in a:
            if left[line] > 0:
                left[line] -= 1
            else:
                removed.append(line)
        return [line for line in removed if line.strip()]
    removed = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes():
        if tag == "delete":
            removed += a[i1:i2]
        elif tag == "replace":
            words = [(n, word) for n in range(i1, i2) for word in a[n].split()]
            kept = [word for line in b[j1:j2] for word in line.split()]
            if len(words) + len(kept) > WORD_DIFF_LIMIT:  # the word diff is quadratic: a huge block goes whole
                removed += a[i1:i2]
                continue
            went: dict[int, list[str]] = {}
            matcher = difflib.SequenceMatcher(None, [w for _, w in words], kept, autojunk=False)
            for op, k1, k2, _, _ in matcher.get_opcodes():
                if op in ("delete", "replace"):
                    for n, word in words[k1:k2]:
                        went.setdefault(n, []).append(word)
            removed += [" ".join(went[n]) for n in sorted(went)]
    return [line for line in removed if line.strip()]


def report(found: dict, entry: dict, origin: str, notes: list[dict], filter_note: str | None) -> dict:
    pages = []
    for page in found["pages"]:
        before, after = page["markdown"], page.get("markdown_filtered")
        removed = removed_by_filter(before, after) if after is not None else None
        pages.append({
            "url": page["url"], "http_status": page["http_status"], "content_type": page["content_type"],
            "jobs": [{"title": j["title"], "url": j["url"], "confidence": j["confidence"], "parser": j["parser_key"],
                      "fields": {name: {"value": value, "evidence": (j["evidence"] or {}).get(name)}
                                 for name, value in (j["fields"] or {}).items() if value not in (None, "", [], {})}}
                     for j in page["jobs"]],
            "markdown_before": before, "markdown_after": after, "removed_by_filter": removed})
    suggested = dict(entry)
    first = dict(entry["strategies"][0])
    job_urls, guessed = job_page_urls(found["pages"])
    warned = []
    if first.get("type") == "href" and not first.get("job_url_patterns") and len(job_urls) >= 2:
        # the folder the job pages share, so the next crawl follows only those links
        folder = jobs_folder(job_urls)
        if folder:
            outside = [u for u in dict.fromkeys(guessed + job_urls) if not urlsplit(u).path.startswith(folder)]
            if outside:
                warned.append(f"{len(outside)} page(s) read lie outside {folder} and only the generic reading took "
                              f"them for a job ({', '.join(urlsplit(u).path for u in outside[:3])}"
                              f"{', ...' if len(outside) > 3 else ''}): not job pages, most likely; the suggested "
                              f"job_url_patterns keep to {folder}, where the pages with a posting are")
            first["job_url_patterns"] = [re.escape(folder)]
            # a dead link there would make every run incomplete (a failed page never marks jobs gone)
            dead = sorted({urlsplit(url).path for url, status in found.get("failed", [])
                           if 400 <= status < 500 and urlsplit(url).path.startswith(folder)})
            if dead:
                first["exclude_patterns"] = [re.escape(path) + "$" for path in dead]
    suggested["strategies"] = [first] + list(entry["strategies"][1:])
    from gigflow.sources.suggest import source_for_url

    employer = agreed_employer(found["pages"])
    placeholder = source_for_url(entry["canonical_url"])["company"] if entry.get("canonical_url") else None
    if employer and entry.get("company") == placeholder:
        # the host was only a placeholder: every job read names the same employer (a board's do not agree)
        suggested["company"] = employer
    better = [n["strategy"] for n in notes if n.get("strategy")]
    if better:  # a board's API, or a browser for a script-rendered listing, beats the tried strategy
        suggested["strategies"] = better[:1] + suggested["strategies"]
    return {"tried": origin, "run": {"outcome": found["run"]["outcome"]}, "pages": pages,
            "filter": {"rules": found.get("filter_rules"), "not_learned": filter_note},
            "warnings": [n["text"] for n in notes] + warned, "source_file": {"sources": [suggested]}}


def agreed_employer(pages: list[dict]) -> str:
    """The employer every job read names, as written on most of them, when two or more jobs do; else ''."""
    names = [str((job["fields"] or {}).get("employer") or "").strip() for page in pages for job in page["jobs"]]
    if len(names) < 2 or not all(names) or len({" ".join(n.casefold().split()) for n in names}) != 1:
        return ""
    return Counter(names).most_common(1)[0][0]


def jobs_folder(urls: list[str]) -> str:
    """The folder (one level down or deeper) that holds most of the job pages, at least two and at least half of
    them; the deepest of those that hold as many: "/job/" for six postings beside a stray "/about/" page, "/jobs/"
    for postings split between "/jobs/show/" and "/jobs/show-1/". '' when none does."""
    counts: Counter = Counter()
    for url in dict.fromkeys(urls):
        folders = urlsplit(url).path.split("/")[1:-1]
        for depth in range(1, len(folders) + 1):
            counts["/" + "/".join(folders[:depth]) + "/"] += 1
    if not counts:
        return ""
    best = max(counts.values())
    if best < max(2, (len(set(urls)) + 1) // 2):
        return ""
    return max((folder for folder, count in counts.items() if count == best), key=lambda folder: folder.count("/"))


def job_page_urls(pages: list[dict]) -> tuple[list[str], list[str]]:
    """The URLs of the pages read that hold a job, and those of them whose jobs only the generic fallback found.

    Where two or more pages hold a structured posting (JSON-LD, an ATS payload), those pages say where the jobs
    are: a legal notice or a blog post under a listing's every-link first guess is also read as a "job" by the
    generic fallback (a heading, some text), and would widen the folder to the whole site."""
    found = [(p["url"], j) for p in pages for j in p["jobs"] if j["url"] and j["confidence"] >= 0.6]
    structured = [url for url, j in found if not str(j["parser_key"]).startswith("generic")]
    guessed = [url for url, j in found if str(j["parser_key"]).startswith("generic")]
    if len(set(structured)) >= 2:
        return structured, guessed
    return [url for url, _ in found], []


def render(result: dict, pages_shown_lines: int = 12) -> str:
    out = [f"tried {result['tried']}: run {result['run']['outcome']}, {len(result['pages'])} page(s) read"]
    for number, page in enumerate(result["pages"], 1):
        out.append(f"\npage {number}: {page['url']} (HTTP {page['http_status']}, {page['content_type']})")
        if not page["jobs"]:
            out.append("  no job on this page")
        for job in page["jobs"]:
            out.append(f"  job: {job['title']} ({job['parser']}, confidence {job['confidence']:.2f})")
            for name, field in job["fields"].items():
                evidence = field["evidence"] or {}
                how = (f"{evidence.get('method')}: {str(evidence.get('snippet_or_path', ''))[:60]}"
                       if evidence else "no evidence")
                out.append(f"    {name:16} {json.dumps(field['value'], ensure_ascii=False)[:70]:72} [{how}]")
        before, after = page["markdown_before"], page["markdown_after"]
        if after is None:
            out.append(f"  Markdown: {len(before)} characters (no filter learned)")
        else:
            out.append(f"  Markdown: {len(before)} characters; {len(after)} with the filter learned on these pages"
                       + (", which removes:" if page["removed_by_filter"] else ", which removes nothing here"))
            for line in page["removed_by_filter"][:pages_shown_lines]:
                out.append(f"    - {line[:110]}")
            if len(page["removed_by_filter"]) > pages_shown_lines:
                out.append(f"    ... {len(page['removed_by_filter']) - pages_shown_lines} more line(s) (--json shows all)")
    if result["filter"]["not_learned"]:
        out.append(f"\nnoise filter: {result['filter']['not_learned']}")
    elif result["filter"]["rules"] is not None:
        out.append(f"\nnoise filter: {result['filter']['rules']} removal rule(s) learned on these pages (not saved)")
    out.append("\nwarnings:" if result["warnings"] else "\nwarnings: none")
    out += [f"  - {text}" for text in result["warnings"]]
    source_id = result["source_file"]["sources"][0]["id"]
    out.append("\nsource file to import (save it as sources.yaml, or use --out; nothing was stored):\n")
    out.append(yaml.safe_dump(result["source_file"], sort_keys=False, allow_unicode=True).rstrip())
    out.append(f"\nnext: scrapy sources import sources.yaml && scrapy sources policy {source_id} --reviewed "
               f"--note TEXT")
    return "\n".join(out)


def try_source(process, settings, target: str, pages: int, *, source_id: str | None = None,
               company: str | None = None) -> dict:
    entry, origin = source_entry(target, source_id, company)
    with scratch_database(settings) as (scratch, pool):
        failed = crawl_once(process, settings, pool, entry, pages)
        found = gather(pool)
        found["failed"] = failed
        filter_note = with_learned_filter(found, entry, settings)
        notes = warnings(found, entry)
    return {**report(found, entry, origin, notes, filter_note), "scratch_database": f"{scratch} (dropped)"}
