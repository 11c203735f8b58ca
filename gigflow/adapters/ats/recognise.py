"""Which ATS board a URL or a career page points to: a pure recogniser over URLs and HTML (no network).

The one table of providers gigflow knows (`RULES`: host patterns, board, posting and API URL shapes), read by
every caller: `board_of(url)` names the provider and board of one URL (job link, apply link, iframe, embed script,
API endpoint); `posting_of(url)` names the provider when the URL is one posting's page (extraction: an off-site
apply button to it is the apply URL); `sources try` and `sources discover` read pages with `recognise_page`. `recognise_page(html, url)` reads a career page's links, iframes, scripts and forms, counts what each
names, and returns the boards found, best first, each with the links that showed it and how sure it is.
Providers gigflow reads through the ATS strategy are `supported`; the others (iCIMS, Avature, Taleo, ...) are named
so an operator knows what the page is, and their hosted board can be crawled with an href strategy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from gigflow.adapters.common import as_bytes

_SLUG = r"[A-Za-z0-9][A-Za-z0-9_.%-]*"
_LABEL = r"[A-Za-z0-9][A-Za-z0-9-]*"


@dataclass(frozen=True)
class Rule:
    provider: str
    pattern: re.Pattern
    kind: str  # embed, api, board, job (one posting): how strongly one such link names the board
    reserved: frozenset = frozenset()  # words in the board's place that name no board (a CDN host, a path)


def _rule(provider: str, pattern: str, kind: str, reserved=()) -> Rule:
    return Rule(provider, re.compile(pattern, re.I), kind, frozenset(word.lower() for word in reserved))


_SUBDOMAIN_RESERVED = ("www", "app", "api", "assets", "static", "cdn", "help", "support", "status", "blog", "docs",
                       "scripts", "media", "images", "career", "careers", "jobs", "login", "auth", "mail", "go")
# Rules match the URL as `//host/path?query`, the host lower-cased and without port or user (see `_comparable`): a
# board read from a host is lower-case, whatever case a link spells it in. A rule without a `board` group names a
# posting whose board the URL does not say (Workable's short links).
RULES: tuple[Rule, ...] = (
    # Greenhouse: one posting's embedded form names it by `token=`; the embed script and iframe name the board in `for=`; boards and the API in the path.
    _rule("greenhouse", rf"//(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io/embed/job_app\?(?=(?:[^#\s\"']*&)?token=\d)(?:[^#\s\"']*?&(?:amp;)?)?for=(?P<board>{_SLUG})", "job"),
    # ... and without `for=` it names a posting whose board the URL does not say.
    _rule("greenhouse", r"//(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io/embed/job_app\?(?:[^#\s\"']*&)?token=\d", "job"),
    _rule("greenhouse", rf"//(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io/embed/job_(?:board|app)(?:/js)?\?(?:[^#\s\"']*?&(?:amp;)?)?for=(?P<board>{_SLUG})", "embed"),
    _rule("greenhouse", rf"//boards-api(?:\.eu)?\.greenhouse\.io/v1/boards/(?P<board>{_SLUG})", "api"),
    _rule("greenhouse", rf"//(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io/(?P<board>{_SLUG})/jobs/\d+", "job"),
    _rule("greenhouse", rf"//(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io/(?P<board>{_SLUG})/?(?:[?#\"'\s]|$)", "board",
          ("embed", "v1", "favicon.ico")),
    _rule("lever", rf"//api(?P<eu>\.eu)?\.lever\.co/v0/postings/(?P<board>{_SLUG})", "api"),
    _rule("lever", rf"//jobs(?P<eu>\.eu)?\.lever\.co/(?P<board>{_SLUG})/[0-9a-f]{{8}}-", "job"),
    # Everything under jobs.lever.co/<board>/ is that board's (its postings' apply pages, its filters).
    _rule("lever", rf"//jobs(?P<eu>\.eu)?\.lever\.co/(?P<board>{_SLUG})(?:[/?#\"'\s]|$)", "board"),
    _rule("ashby", rf"//api\.ashbyhq\.com/posting-api/job-board/(?P<board>{_SLUG})", "api"),
    _rule("ashby", rf"//jobs\.ashbyhq\.com/(?P<board>{_SLUG})/embed", "embed"),
    _rule("ashby", rf"//jobs\.ashbyhq\.com/(?P<board>{_SLUG})/[0-9a-f]{{8}}-", "job"),
    _rule("ashby", rf"//jobs\.ashbyhq\.com/(?P<board>{_SLUG})/?(?:[?#\"'\s]|$)", "board", ("api",)),
    _rule("workday", r"//(?P<host>[A-Za-z0-9-]+\.wd\d+)\.myworkdayjobs\.com/wday/cxs/[A-Za-z0-9_-]+/(?P<board>[A-Za-z0-9_-]+)", "api"),
    _rule("workday", r"//(?P<host>[A-Za-z0-9-]+\.wd\d+)\.myworkdayjobs\.com/(?:[a-z]{2}-[A-Za-z]{2}/)?(?P<board>[A-Za-z0-9_-]+)/job/", "job"),
    _rule("workday", r"//(?P<host>[A-Za-z0-9-]+\.wd\d+)\.myworkdayjobs\.com/(?:[a-z]{2}-[A-Za-z]{2}/)?(?P<board>[A-Za-z0-9_-]+)", "board",
          ("wday", "job", "jobs")),
    # Workday's shared site names the tenant in the path: the same board as <tenant>.<wdN>.myworkdayjobs.com/<site>.
    _rule("workday", r"//(?P<wd>wd\d+)\.myworkdaysite\.com/(?:[a-z]{2}-[A-Za-z]{2}/)?recruiting/(?P<tenant>[A-Za-z0-9_-]+)/(?P<board>[A-Za-z0-9_-]+)/job/", "job"),
    _rule("workday", r"//(?P<wd>wd\d+)\.myworkdaysite\.com/(?:[a-z]{2}-[A-Za-z]{2}/)?recruiting/(?P<tenant>[A-Za-z0-9_-]+)/(?P<board>[A-Za-z0-9_-]+)", "board"),
    _rule("personio", rf"//(?P<board>{_LABEL})\.jobs\.personio\.(?P<tld>de|com)/xml", "api"),
    _rule("personio", rf"//(?P<board>{_LABEL})\.jobs\.personio\.(?P<tld>de|com)/job/\d+", "job"),
    _rule("personio", rf"//(?P<board>{_LABEL})\.jobs\.personio\.(?P<tld>de|com)", "board"),
    _rule("teamtailor", rf"//(?P<board>{_LABEL})\.teamtailor\.com/jobs\.(?:json|rss)", "api", _SUBDOMAIN_RESERVED),
    _rule("teamtailor", rf"//(?P<board>{_LABEL})\.teamtailor\.com/jobs/\d+", "job", _SUBDOMAIN_RESERVED),
    _rule("teamtailor", rf"//(?P<board>{_LABEL})\.teamtailor\.com", "board", _SUBDOMAIN_RESERVED),
    _rule("bamboohr", rf"//(?P<board>{_LABEL})\.bamboohr\.com/(?:js/embed\.js|jobs/embed2?\.php)", "embed", _SUBDOMAIN_RESERVED),
    _rule("bamboohr", rf"//(?P<board>{_LABEL})\.bamboohr\.com/careers/list", "api", _SUBDOMAIN_RESERVED),
    _rule("bamboohr", rf"//(?P<board>{_LABEL})\.bamboohr\.com/(?:careers|jobs)/(?:view\.php\?id=)?\d+", "job", _SUBDOMAIN_RESERVED),
    _rule("bamboohr", rf"//(?P<board>{_LABEL})\.bamboohr\.com/(?:careers|jobs)", "board", _SUBDOMAIN_RESERVED),
    _rule("breezy", rf"//(?P<board>{_LABEL})\.breezy\.hr/json", "api", _SUBDOMAIN_RESERVED),
    _rule("breezy", rf"//(?P<board>{_LABEL})\.breezy\.hr/p/", "job", _SUBDOMAIN_RESERVED),
    _rule("breezy", rf"//(?P<board>{_LABEL})\.breezy\.hr", "board", _SUBDOMAIN_RESERVED),
    _rule("pinpoint", rf"//(?P<board>{_LABEL})\.pinpointhq\.com/postings\.json", "api", _SUBDOMAIN_RESERVED),
    _rule("pinpoint", rf"//(?P<board>{_LABEL})\.pinpointhq\.com/(?:[a-z]{{2}}/)?(?:postings|jobs)/[0-9a-f-]+", "job", _SUBDOMAIN_RESERVED),
    _rule("pinpoint", rf"//(?P<board>{_LABEL})\.pinpointhq\.com", "board", _SUBDOMAIN_RESERVED),
    _rule("manatal", rf"//core\.api\.manatal\.com/open/v\d+/career-page/(?P<board>{_SLUG})", "api"),
    _rule("manatal", rf"//(?:www\.)?careers-page\.com/(?P<board>{_SLUG})/job/", "job"),
    _rule("manatal", rf"//(?:www\.)?careers-page\.com/(?P<board>{_SLUG})", "board", ("static", "assets")),
    _rule("recruitee", rf"//(?P<board>{_LABEL})\.recruitee\.com/api/offers", "api", _SUBDOMAIN_RESERVED),
    _rule("recruitee", rf"//(?P<board>{_LABEL})\.recruitee\.com/o/", "job", _SUBDOMAIN_RESERVED),
    _rule("recruitee", rf"//(?P<board>{_LABEL})\.recruitee\.com", "board", _SUBDOMAIN_RESERVED),
    _rule("smartrecruiters", rf"//api\.smartrecruiters\.com/v1/companies/(?P<board>{_SLUG})", "api"),
    _rule("smartrecruiters", rf"//(?:jobs|careers)\.smartrecruiters\.com/(?P<board>{_SLUG})/\d+", "job"),
    _rule("smartrecruiters", rf"//(?:jobs|careers)\.smartrecruiters\.com/(?P<board>{_SLUG})/?(?:[?#\"'\s]|$)", "board",
          ("sr-company-logo-prod",)),
    _rule("workable", rf"//apply\.workable\.com/api/v\d/(?:widget/)?accounts/(?P<board>{_SLUG})", "api"),
    _rule("workable", rf"//apply\.workable\.com/(?P<board>{_SLUG})/j/", "job", ("api", "j")),
    _rule("workable", r"//apply\.workable\.com/j/[0-9A-Za-z]+", "job"),  # a short link: the posting, no board
    _rule("workable", rf"//apply\.workable\.com/(?P<board>{_SLUG})/?(?:[?#\"'\s]|$)", "board", ("api", "j")),
    # Named so an operator knows the page; not read through the ATS strategy (an href source reads their board).
    _rule("icims", rf"//(?P<board>{_LABEL})\.icims\.com/jobs/\d+", "job", ("cdn01", "cdn02", "www", "images")),
    _rule("icims", rf"//(?P<board>{_LABEL})\.icims\.com", "board", ("cdn01", "cdn02", "cdn", "www", "images", "icims2")),
    _rule("avature", rf"//(?P<board>{_LABEL}\.avature\.net/(?:[a-z]{{2}}_[A-Z]{{2}}/)?[A-Za-z0-9_-]+)/JobDetail/", "job"),
    _rule("avature", rf"//(?P<board>{_LABEL}\.avature\.net/(?:[a-z]{{2}}_[A-Z]{{2}}/)?[A-Za-z0-9_-]+)/SearchJobs", "board"),
    _rule("avature", rf"//(?P<board>{_LABEL})\.avature\.net", "board", ("www",)),
    _rule("taleo", rf"//(?P<board>{_LABEL})\.taleo\.net/careersection/(?P<site>[A-Za-z0-9_-]+)", "board"),
    _rule("successfactors", r"//career\d*\.successfactors\.(?:com|eu)/(?:career|sfcareer/jobreqcareer)\?(?=[^#\s\"']*(?:career_job_req_id|jobId)=\d)", "job"),
    _rule("successfactors", r"//(?P<board>career\d*\.successfactors\.(?:com|eu)/career\?company=[A-Za-z0-9_-]+)", "board"),
    _rule("jobvite", rf"//jobs\.jobvite\.com/(?P<board>{_SLUG})/job/[0-9A-Za-z]+", "job"),
    _rule("jobvite", rf"//jobs\.jobvite\.com/(?P<board>{_SLUG})", "board", ("__utils",)),
    _rule("softgarden", rf"//(?P<board>{_LABEL})\.softgarden\.io/job/\d+", "job", _SUBDOMAIN_RESERVED),
    _rule("softgarden", rf"//(?P<board>{_LABEL})\.softgarden\.io", "board", _SUBDOMAIN_RESERVED + ("static",)),
    _rule("join", rf"//join\.com/companies/(?P<board>{_SLUG})/\d+", "job"),
    _rule("join", r"//join\.com/jobs/\d+", "job"),
    _rule("join", rf"//join\.com/companies/(?P<board>{_SLUG})", "board"),
    _rule("rippling", rf"//ats\.rippling\.com/(?:[a-z]{{2}}-[A-Z]{{2}}/)?(?P<board>{_SLUG})/jobs/[0-9a-f]{{8}}-", "job"),
    _rule("rippling", rf"//(?P<board>{_LABEL})\.rippling-ats\.com/jobs/[0-9a-f]{{8}}-", "job", _SUBDOMAIN_RESERVED),
    _rule("rippling", rf"//ats\.rippling\.com/(?:[a-z]{{2}}-[A-Z]{{2}}/)?(?P<board>{_SLUG})/jobs", "board"),
    # Jibe sites live on the employer's host, where `/api/jobs` alone names nothing: only Jibe's own host
    # (<tenant>.jibeapply.com) or the query its career site sends (`descending=` and `internal=`, or `domain=`
    # naming the tenant) tells its API from any other site's.
    _rule("jibe", r"//(?P<board>[a-z0-9-]+\.jibeapply\.com)/api/jobs", "api"),
    _rule("jibe", r"//(?P<board>[a-z0-9.-]+)/api/jobs/?\?(?:(?=(?:[^#\s\"']*&)?domain=[a-z0-9-]+\.jibeapply\.com)|"
                  r"(?=(?:[^#\s\"']*&)?descending=)(?=(?:[^#\s\"']*&)?internal=))", "api"),
)
# Providers gigflow reads with the ATS strategy.
SUPPORTED = ("greenhouse", "lever", "recruitee", "smartrecruiters", "workable", "ashby", "workday", "personio",
             "teamtailor", "bamboohr", "breezy", "pinpoint", "manatal", "jibe", "radancy")
# Markers of providers that live on the employer's own domain (the board is the page's host).
HOSTED_MARKERS = {
    "jibe": re.compile(r"jibecdn\.com|jibeapply\.com", re.I),
    "radancy": re.compile(r"tbcdn\.talentbrew\.com|cdn\.radancy\.(?:eu|com)|/search-jobs/results", re.I),
}
WEIGHT = {"embed": 3.0, "api": 3.0, "job": 1.0, "board": 2.0, "marker": 1.0}


@dataclass(frozen=True)
class BoardRef:
    provider: str
    board: str
    kind: str
    region: str = "us"

    @property
    def supported(self) -> bool:
        return self.provider in SUPPORTED


# Every rule's URL holds one of these: plain substring tests tell most URLs apart before any rule runs.
PROVIDER_MARKERS = ("greenhouse.io", "lever.co", "ashbyhq.com", "myworkday", "personio.", "teamtailor.com",
                    "bamboohr.com", "breezy.hr", "pinpointhq.com", "careers-page.com", "manatal.com", "recruitee.com",
                    "smartrecruiters.com", "workable.com", "icims.com", "avature.net", "taleo.net", "successfactors.",
                    "jobvite.com", "softgarden.io", "join.com", "rippling", "/api/jobs")


def _comparable(url: str) -> str:
    """`//host/path?query#fragment` with the host lower-cased and no port or user: how the rules read a URL (a
    link's port or upper-case host names the same board). Text that is no URL is read as it is."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return url
    if not host or parts.scheme.lower() not in ("http", "https", ""):
        return url
    return (f"//{host}{parts.path}" + (f"?{parts.query}" if parts.query else "")
            + (f"#{parts.fragment}" if parts.fragment else ""))


def _matches(url: str | None):
    """(rule, match) of the first (most specific) rule the URL matches whose board is no reserved word."""
    if not url or not isinstance(url, str):
        return None
    text = url.replace("&amp;", "&")[:2000]
    if not any(marker in text.lower() for marker in PROVIDER_MARKERS):
        return None
    text = _comparable(text)
    # A URL read as //host/path is matched from its start: a provider's address inside another site's query
    # (a redirect, ?url=https://jobs.lever.co/...) is that site's link, not the provider's.
    anchored = text.startswith("//")
    for rule in RULES:
        match = rule.pattern.match(text) if anchored else rule.pattern.search(text)
        if match and (match.groupdict().get("board") or "").lower() not in rule.reserved:
            return rule, match
    return None


def board_of(url: str | None) -> BoardRef | None:
    """The provider and board one URL names, by the first (most specific) rule that matches; None if none (or if
    the URL names a posting but not its board)."""
    found = _matches(url)
    if found is None or found[1].groupdict().get("board") is None:
        return None
    rule, match = found
    board = unquote(match.group("board"))
    groups = match.groupdict()
    if rule.provider == "workday":
        board = f"{groups['tenant'].lower()}.{groups['wd']}/{board}" if groups.get("wd") else f"{groups['host']}/{board}"
    elif rule.provider == "personio" and groups.get("tld") == "com":
        board = f"{board}.com"
    elif rule.provider == "taleo":
        board = f"{board}/{groups['site']}"
    return BoardRef(rule.provider, board, rule.kind, "eu" if groups.get("eu") else "us")


def posting_of(url: str | None) -> str | None:
    """The provider when the URL is one posting's page on it (not its board's front page, not an API endpoint,
    which answers JSON to no applicant), else None."""
    found = _matches(url)
    return found[0].provider if found is not None and found[0].kind == "job" else None


@dataclass
class Finding:
    """One board a page points to: its provider, board id, how sure (0..1) and the links that showed it."""

    provider: str
    board: str
    region: str = "us"
    score: float = 0.0
    evidence: list[str] = field(default_factory=list)
    job_links: int = 0
    confidence: float = 0.0

    @property
    def supported(self) -> bool:
        return self.provider in SUPPORTED


MAX_EVIDENCE = 5
MAX_SCRIPT_CHARS = 2_000_000
MAX_SCRIPT_URLS = 2000
SCRIPT_URL = re.compile(r"https?:\\?/\\?/[A-Za-z0-9.-]*(?:greenhouse\.io|lever\.co|ashbyhq\.com|myworkday(?:jobs|site)\.com|"
                        r"personio\.(?:de|com)|teamtailor\.com|bamboohr\.com|breezy\.hr|pinpointhq\.com|"
                        r"careers-page\.com|manatal\.com|recruitee\.com|smartrecruiters\.com|workable\.com|"
                        r"icims\.com|avature\.net|jobvite\.com|softgarden\.io|rippling(?:-ats)?\.com|jibeapply\.com)[^\s\"'<>\\]{0,300}", re.I)


def _join(base: str, value: str) -> str | None:
    """``value`` resolved against ``base``; None for a malformed URL (a page's bad link is skipped, never fatal)."""
    try:
        return urljoin(base, value)
    except ValueError:
        return None


def _base_url(root, url: str) -> str:
    """The page's first usable ``<base href>`` (an http(s) URL once resolved), else the page URL."""
    for element in root.iter("base"):
        joined = _join(url, (element.get("href") or "").strip())
        if joined and joined.split(":", 1)[0].lower() in ("http", "https") and (element.get("href") or "").strip():
            return joined
    return url


def recognise_page(content: bytes | str, url: str) -> list[Finding]:
    """Boards a page names through its links, iframes, scripts, forms and embed markers, best first."""
    try:
        root = lxml_html.document_fromstring(as_bytes(content) or b"<html/>",
                                             parser=lxml_html.HTMLParser(recover=True, remove_comments=True))
    except (etree.ParserError, ValueError):
        return []
    found: dict[tuple[str, str], Finding] = {}
    candidates: list[tuple[str, str]] = [(url, "page URL")]
    base = _base_url(root, url)
    script_urls = 0
    for element in root.iter("a", "iframe", "script", "form", "link", "area", "div", "meta"):
        for attribute in ("href", "src", "action", "data-src", "data-url", "content"):
            value = (element.get(attribute) or "").strip()
            if value and ("//" in value or element.tag in ("a", "iframe", "form")):
                link = _join(base, value)
                if link:
                    candidates.append((link, f"<{element.tag} {attribute}>"))
        if element.tag == "script" and element.text and script_urls < MAX_SCRIPT_URLS:
            # Inline data (a framework's page state) often holds the board's job URLs: only ATS hosts are kept.
            for match in SCRIPT_URL.finditer(element.text[:MAX_SCRIPT_CHARS]):
                candidates.append((match.group().replace("\\/", "/"), "<script> text"))
                script_urls += 1
                if script_urls >= MAX_SCRIPT_URLS:
                    break
    for link, where in candidates:
        ref = board_of(link)
        if ref is None:
            continue
        key = (ref.provider, ref.board.lower())
        finding = found.setdefault(key, Finding(ref.provider, ref.board, ref.region))
        finding.score += WEIGHT[ref.kind] * (2.0 if where == "page URL" else 1.0)
        finding.job_links += ref.kind == "job"
        if len(finding.evidence) < MAX_EVIDENCE and f"{where}: {link}"[:300] not in finding.evidence:
            finding.evidence.append(f"{where}: {link}"[:300])
    body = as_bytes(content)[:2_000_000].decode("utf-8", "replace")
    for provider, marker in HOSTED_MARKERS.items():
        hits = marker.findall(body)
        if len(hits) >= 2:
            try:
                host = urlsplit(url).hostname or ""
            except ValueError:  # a page URL the parser refuses names no host
                host = ""
            board = _radancy_board(body, host) if provider == "radancy" else host
            finding = found.setdefault((provider, board.lower()), Finding(provider, board))
            finding.score += WEIGHT["marker"] * min(len(hits), 3)
            finding.evidence.append(f"markers in the page: {', '.join(sorted(set(h.lower() for h in hits))[:3])}")
    findings = sorted(found.values(), key=lambda f: (-f.score, -f.job_links, f.provider))
    total = sum(f.score for f in findings) or 1.0
    for finding in findings:
        # Share of all ATS signals on the page, raised by how many there are (one stray link is a weak sign).
        finding.confidence = round(min(0.99, (finding.score / total) * min(1.0, 0.5 + finding.score / 8)), 2)
    return findings


def _radancy_board(body: str, host: str) -> str:
    match = re.search(r"data-ajax-url=\"/(?P<lang>[a-z]{2}(?:-[a-z]{2})?)/search-jobs/results", body, re.I)
    return f"{host}/{match.group('lang')}" if match and host else host


__all__ = ["BoardRef", "Finding", "RULES", "SUPPORTED", "board_from_strategy_url", "board_of", "posting_of",
           "recognise_page"]


def board_from_strategy_url(provider: str, url: str) -> str | None:
    """The board id an ATS strategy's ``board_url`` names for ``provider``. Jibe and Radancy sites are on the
    employer's domain: their board is the URL's host (Radancy: and its language path)."""
    ref = board_of(url)
    if ref is not None and ref.provider == provider:
        return ref.board
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if provider == "jibe" and host:
        return host
    if provider == "radancy" and host:
        match = re.match(r"^/([a-z]{2}(?:-[a-z]{2})?)(?:/|$)", parts.path, re.I)
        return f"{host}/{match.group(1)}" if match else host
    return None
