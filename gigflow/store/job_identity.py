"""Job identity: which canonical key a job is stored under (pure; the pipeline adds what the run has seen).

A key never crosses sources (the table is keyed by source and key). Within a source it is
``id:<external id>`` when the adapter's id is trustworthy, else ``url:<canonical job URL>``, with
``#entry:<hash of title and location>`` when several jobs of one page share that URL (feed entries).
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import unquote, urlsplit

from w3lib.url import canonicalize_url

_WORDS = re.compile(r"[\W_]+", re.UNICODE)


def _norm(text: str | None) -> str:
    return _WORDS.sub("", (text or "").casefold())


def canonical_url(url: str) -> str:
    return canonicalize_url(url, keep_fragments=False)


def url_key(url: str, entry: str | None = None) -> str:
    return f"url:{canonical_url(url)}" + (f"#entry:{entry}" if entry else "")


def id_key(external_id: str) -> str:
    return f"id:{external_id}"


def entry_key(job: dict) -> str:
    """Tells apart jobs sharing one URL: a hash of title and location (the same pair is the same job)."""
    location = (job.get("location") or "") if isinstance(job.get("location"), str) else str(job.get("location"))
    text = " ".join((job.get("title") or "").split()).casefold() + "\x1f" + " ".join(location.split()).casefold()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def posting(job: dict) -> tuple[str, str]:
    """What an id must keep pointing at: the posting's title and location (normalised)."""
    location = job.get("location")
    return _norm(job.get("title")), _norm(location if isinstance(location, str) else str(location or ""))


def same_posting(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """One posting seen twice (a listing entry and its detail page, say): same title, and the same location
    where both name one."""
    return a[0] == b[0] and (not a[1] or not b[1] or a[1] == b[1])


def looks_trustworthy(job: dict) -> bool:
    """An external id is no identity when it is really the title, or the URL or its path restated. (An id
    that is one segment of the path, as ATS URLs carry theirs, is still the id.)"""
    external_id = _norm(job.get("external_id"))
    if not external_id:
        return False
    if external_id == _norm(job.get("title")):
        return False
    url = job.get("url") or ""
    return external_id not in {_norm(url), _norm(unquote(urlsplit(url).path))} - {""}


def page_keys(jobs: list[dict], page_url: str) -> tuple[list[str | None], list[str]]:
    """For each job of one page: its trustworthy external id (or None), and the URL key it falls back to.

    An id shared by jobs of the page with other titles or locations is not trustworthy; URL keys get an entry
    key when several jobs of the page share the URL.
    """
    urls = [canonical_url(job.get("url") or page_url) for job in jobs]
    by_id: dict[str, list[tuple[str, str]]] = {}
    for job in jobs:
        if job.get("external_id"):
            by_id.setdefault(job["external_id"], []).append(posting(job))
    ids = [job["external_id"] if looks_trustworthy(job)
           and all(same_posting(seen, by_id[job["external_id"]][0]) for seen in by_id[job["external_id"]]) else None
           for job in jobs]
    per_url: dict[str, int] = {}
    for url, ext in zip(urls, ids):
        if ext is None:
            per_url[url] = per_url.get(url, 0) + 1
    return ids, [url_key(url, entry_key(job) if per_url.get(url, 0) > 1 else None) for job, url in zip(jobs, urls)]
