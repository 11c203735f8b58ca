"""Which applicant-tracking system hosts a URL, and whether the URL names one posting. Pure, host and path only.

A small recogniser for extraction (an off-site apply button to a known ATS is the apply URL). The lead may later
unify it with discovery's recogniser; keep it a plain table.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# (provider, host pattern, path pattern of one posting). A host alone (a board's front page) is not a posting.
_PROVIDERS: tuple[tuple[str, re.Pattern, re.Pattern], ...] = tuple(
    (name, re.compile(host), re.compile(path, re.I)) for name, host, path in (
        ("ashby", r"(^|\.)ashbyhq\.com$", r"^/[^/]+/[0-9a-f]{8}-[0-9a-f-]{27}"),
        ("greenhouse", r"(^|\.)greenhouse\.io$", r"/jobs/\d{4,}|/job_app|[?&]token=\d+"),
        ("lever", r"(^|\.)lever\.co$", r"^/[^/]+/[0-9a-f]{8}-[0-9a-f-]{27}"),
        ("workday", r"(^|\.)myworkdayjobs\.com$|(^|\.)myworkdaysite\.com$", r"/job/"),
        ("smartrecruiters", r"(^|\.)smartrecruiters\.com$", r"^/[^/]+/\d{6,}"),
        ("personio", r"\.jobs\.personio\.(de|com)$", r"^/job/\d+"),
        ("teamtailor", r"(^|\.)teamtailor\.com$", r"/jobs/\d+"),
        ("workable", r"(^|\.)workable\.com$", r"/j/[0-9a-f]{6,}|/jobs/\d+"),
        ("recruitee", r"(^|\.)recruitee\.com$", r"^/o/[^/]+"),
        ("bamboohr", r"(^|\.)bamboohr\.com$", r"/careers/\d+|/jobs/view\.php"),
        ("jobvite", r"(^|\.)jobvite\.com$", r"/job/[0-9a-z]+"),
        ("icims", r"(^|\.)icims\.com$", r"/jobs/\d+"),
        ("breezy", r"(^|\.)breezy\.hr$", r"^/p/[0-9a-z]+"),
        ("pinpoint", r"(^|\.)pinpointhq\.com$", r"/postings/"),
        ("successfactors", r"(^|\.)successfactors\.(com|eu)$", r"career|job"),
        ("softgarden", r"(^|\.)softgarden\.io$", r"/job/\d+"),
        ("join", r"(^|\.)join\.com$", r"/jobs/\d+"),
        ("rippling", r"(^|\.)rippling\.com$|(^|\.)rippling-ats\.com$", r"/jobs/[0-9a-f-]{8,}"),
    ))


def ats_posting(url: str | None) -> str | None:
    """The ATS when the URL names one of its postings (not its board's front page), else None."""
    if not url or not url.lower().startswith(("http://", "https://")):
        return None
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:  # a malformed URL names no posting
        return None
    for name, hosts, path in _PROVIDERS:
        if hosts.search(host):
            return name if path.search(parts.path + ("?" + parts.query if parts.query else "")) else None
    return None
