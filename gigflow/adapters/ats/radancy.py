"""Radancy (TalentBrew) career sites: the search-results endpoint (`/<lang>/search-jobs/results?CurrentPage=N`)
answers JSON whose `results` is an HTML fragment of job cards, with the page count in `data-total-pages`. The
board is the site's host and language path, on the employer's own domain."""

from __future__ import annotations


import re
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, failed, query_int, result, with_query
from gigflow.adapters.common import clean_text, first, is_http_url
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult, NextPage

HOSTS: tuple[str, ...] = ()  # on the employer's domain: recognised by its payload
PAGE_SIZE = 100
JOB_URL = re.compile(r"/(?:job|jobs|emploi|empleo|stellenangebot|offre)/[^?#]*/(?P<id>\d{5,})(?:[/?#]|$)")
CONFIDENCE = 0.85


def origin(board: str) -> str:
    return f"https://{board.split('/', 1)[0]}"


def listing_url(board: str, base: str | None = None, *, page: int = 1, page_size: int = PAGE_SIZE) -> str:
    _, _, language = board.partition("/")
    prefix = f"/{language}" if language else ""
    return (f"{(base or origin(board)).rstrip('/')}{prefix}/search-jobs/results?ActiveFacetID=0&CurrentPage={page}"
            f"&RecordsPerPage={page_size}&SearchResultsModuleName=Search+Results&SearchType=5")


def first_page(board: str, base: str | None = None, page_size: int = PAGE_SIZE) -> NextPage:
    return NextPage(url=listing_url(board, base, page_size=page_size))


def detail_url(board: str, path: str, base: str | None = None) -> str:
    return urljoin((base or origin(board)).rstrip("/") + "/", path.lstrip("/"))


def next_page(data, url: str) -> NextPage | None:
    return None  # read from the fragment: see RadancyAdapter.read


class RadancyAdapter(AtsAdapter):
    parser_key = "radancy"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"results"' in head and b"search-results" in head and (b"data-job-id" in head or b"hasJobs" in head)

    def board_from_url(self, url: str) -> str | None:
        match = re.search(r"^https?://(?P<host>[^/?#]+)/(?:(?P<lang>[a-z]{2}(?:-[a-z]{2})?)/)?search-jobs", url or "", re.I)
        if not match:
            return None
        return f"{match.group('host')}/{match.group('lang')}" if match.group("lang") else match.group("host")

    def read(self, data, url: str) -> ExtractionResult:
        if not isinstance(data, dict) or not isinstance(data.get("results"), str):
            return failed(self, PayloadError("expected `results` holding the search-results HTML"))
        fragment = data["results"]
        if not fragment.strip():
            return result(self, [], kind="listing", warnings=[] if data.get("hasJobs") is False else
                          ["radancy: empty results fragment"])
        try:
            root = lxml_html.fragment_fromstring(fragment, create_parent="div",
                                                 parser=lxml_html.HTMLParser(recover=True, remove_comments=True))
        except (etree.ParserError, ValueError) as exc:
            return failed(self, PayloadError(f"unreadable results fragment: {exc}"))
        jobs: dict[str, ExtractedJob] = {}
        for anchor in root.iter("a"):
            job_id = clean_text(anchor.get("data-job-id"))
            href = (anchor.get("href") or "").strip()
            match = JOB_URL.search(href)
            job_id = job_id or (match.group("id") if match else None)
            if not job_id or not href or job_id in jobs:
                continue
            title = first(*(clean_text(h.text_content(), 300) for h in anchor.iter("h2", "h3", "h4")),
                          clean_text(anchor.text_content(), 300))
            if not title or title.lower() in ("view job offer", "view job", "apply"):
                continue
            link = urljoin(url, href)
            node_path = root.getroottree().getpath(anchor)
            job = ExtractedJob(title=title, url=link if is_http_url(link) else None, external_id=job_id,
                               apply_url=link if is_http_url(link) else None)  # the job page holds the apply button
            evidence = {"title": Evidence(method="css", snippet_or_path=f"$.results {node_path} h2", confidence=CONFIDENCE),
                        "url": Evidence(method="css", snippet_or_path=f"$.results {node_path}@href", confidence=CONFIDENCE),
                        "apply_url": Evidence(method="css", snippet_or_path=f"$.results {node_path}@href",
                                              confidence=CONFIDENCE),
                        "external_id": Evidence(method="css", snippet_or_path=f"$.results {node_path}@data-job-id",
                                                confidence=CONFIDENCE)}
            card = anchor.getparent() if anchor.getparent() is not None else anchor
            for field, names in (("location", ("job-location",)), ("date_posted", ("job-date-posted", "job-date"))):
                node = next((n for n in card.iter() if any(name in (n.get("class") or "").split() for name in names)), None)
                text = clean_text(node.text_content(), 200) if node is not None else None
                if text:
                    setattr(job, field, text)
                    evidence[field] = Evidence(method="css", snippet_or_path=f"$.results {node_path}/..//*[@class~={names[0]}]",
                                               confidence=0.75)
            job.evidence = evidence
            job.raw = {"data-job-id": job_id, "href": href[:300]}
            jobs[job_id] = job
        return result(self, list(jobs.values()), kind="listing", warnings=[], next_page=_next(root, url, bool(jobs)))


def _next(root, url: str, had_jobs: bool) -> NextPage | None:
    section = next(root.iter("section"), None)
    if section is None or not had_jobs:
        return None
    try:
        total = int(section.get("data-total-pages") or 0)
        current = query_int(url, "CurrentPage") or int(section.get("data-current-page") or 1)
    except ValueError:
        return None
    if current >= total or "/search-jobs/results" not in urlsplit(url).path:
        return None
    return NextPage(url=with_query(url, CurrentPage=current + 1))



