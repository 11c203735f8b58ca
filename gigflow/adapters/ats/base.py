"""What the five public ATS adapters share: the supports/extract skeleton (AtsAdapter and its hooks) and a job
built from (value, JSON path) pairs, each with evidence."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit, urlunsplit

from gigflow.adapters.ats.board import board_candidates
from gigflow.adapters.common import PayloadError, bounded_raw, host_matches, host_of, load_json
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionContext, ExtractionResult, NextPage, Salary

BASELINE = 0.90
# The employer of a board's jobs when the payload does not name it: the source's configured company, else the
# board's own name (its id in the URL) as a last resort.
CONFIG_EMPLOYER_CONFIDENCE = 0.8
BOARD_EMPLOYER_CONFIDENCE = 0.5
# Fields whose absence lowers a job's share of the extraction confidence.
WEIGHTED = {"employer": 0.05, "location": 0.03, "description": 0.02}


# A posting state that says the vacancy is over (a detail endpoint still answers for a closed posting: the link
# check and a revisit read it). Only these words: "draft", "internal" or "unlisted" say nothing of whether it is filled.
CLOSED_STATES = frozenset({"closed", "archived", "filled", "expired", "inactive", "unpublished", "cancelled",
                           "canceled"})


def closed_state(value: Any, name: str) -> str | None:
    """``closed_notice`` for a payload's posting state: "status: archived" (the state named by its field), or None
    while it is open or unknown. ``False`` for a flag such as ``active`` reads "active: false"."""
    if value is False:
        return f"{name}: false"
    text = str(value).strip().lower() if isinstance(value, str) else ""
    return f"{name}: {text}" if text in CLOSED_STATES else None


def ats_job(fields: dict[str, tuple[Any, str]], *, raw: Any, salary: tuple[Salary, str] | None = None,
            locations: list[str] | None = None) -> ExtractedJob:
    """An ExtractedJob from `{field: (value, json_path)}`; every present field carries ats-json evidence."""
    values = {name: value for name, (value, _) in fields.items() if value not in (None, "", [])}
    job = ExtractedJob(title=values.pop("title", "") or "", **values)
    if locations:
        job.locations = locations
    if salary:
        job.salary = salary[0]
    evidence = {name: Evidence(method="ats-json", snippet_or_path=path[:500], confidence=BASELINE)
                for name, (value, path) in fields.items() if value not in (None, "", [])}
    if salary:
        evidence["salary"] = Evidence(method="ats-json", snippet_or_path=salary[1], confidence=BASELINE)
    job.evidence = evidence
    job.raw = bounded_raw(raw) if isinstance(raw, dict) else {}
    return job


def result(adapter, jobs: list[ExtractedJob], *, kind: str, warnings: list[str],
           next_page: NextPage | None = None) -> ExtractionResult:
    """Keep storable jobs only (warning about the rest); confidence drops for missing employer etc."""
    kept = []
    for index, job in enumerate(jobs):
        if job.is_storable():
            kept.append(job)
        else:
            warnings.append(f"job {index}: dropped, no title or no http(s) URL / external id")
    confidence = 0.0
    if kept:
        missing = sum(weight for field, weight in WEIGHTED.items()
                      if sum(1 for job in kept if getattr(job, field)) < len(kept))
        confidence = round(BASELINE - missing, 3)
    return ExtractionResult(jobs=kept, parser_key=adapter.parser_key, parser_version=adapter.parser_version,
                            confidence=confidence, warnings=warnings, kind=kind, next_page=next_page)


def failed(adapter, error: Exception) -> ExtractionResult:
    return ExtractionResult(parser_key=adapter.parser_key, parser_version=adapter.parser_version,
                            warnings=[f"{adapter.parser_key}: {error}"])


def as_list(value) -> list:
    """A payload field read as a list: anything else (null, a string, a number) is no items."""
    return value if isinstance(value, list) else []


def board_segment(pattern: re.Pattern, url: str | None, reserved: set[str] = frozenset()) -> str | None:
    """The `board` group of ``pattern`` in ``url`` (percent-decoded), unless it is a reserved path word."""
    match = pattern.search(url or "") if isinstance(url, str) else None
    board = unquote(match.group("board")) if match else None
    return board if board and board.lower() not in reserved else None


def with_query(url: str, **updates) -> str:
    """``url`` with the given query parameters set (others kept, order kept)."""
    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    query.update({k: str(v) for k, v in updates.items()})
    return urlunsplit(parts._replace(query=urlencode(query)))


def query_int(url: str, name: str, default: int | None = None) -> int | None:
    values = parse_qs(urlsplit(url).query).get(name)
    try:
        return int(values[-1]) if values else default
    except ValueError:
        return default


def board_name(board: str | None) -> str | None:
    """A readable name from a board id: `acme` -> acme; `acme.wd5/External` -> acme; `jobs.acme.co.uk/en` -> acme."""
    if not board:
        return None
    host = board.split("/", 1)[0]
    labels = [label for label in host.split(".") if label]
    if len(labels) <= 1:
        return host or None
    if len(labels) == 2 or re.fullmatch(r"wd\d+", labels[-1]):  # personio "acme.com", workday "acme.wd5"
        return labels[0]
    index = -3 if len(labels) >= 3 and labels[-2] in ("co", "com", "ac", "org", "gov", "net") else -2
    return labels[index]


def fill_employer(jobs: list[ExtractedJob], *, company: str | None, board: str | None) -> None:
    """Every ATS job has an employer: the payload's, else the source's company (evidence `config`), else the
    board's name from the URL (evidence `meta`, low confidence)."""
    for job in jobs:
        if job.employer:
            continue
        if company:
            job.employer = company
            job.evidence = {**job.evidence, "employer": Evidence(
                method="config", snippet_or_path="the source's configured company", confidence=CONFIG_EMPLOYER_CONFIDENCE)}
        elif board:
            job.employer = board
            job.evidence = {**job.evidence, "employer": Evidence(
                method="meta", snippet_or_path=f"the board id in the URL: {board}"[:500],
                confidence=BOARD_EMPLOYER_CONFIDENCE)}


class AtsAdapter:
    """One provider: its hosts, its board's job-link pattern and two hooks. ``is_payload(head)``: the first bytes
    of a JSON body are this provider's although served from another host; ``read(data, url)``: the parsed
    JSON's ExtractionResult. An HTML body is the provider's hosted board: its job links are the jobs."""

    parser_key: str = ""
    parser_version = "1.0.0"
    hosts: tuple[str, ...] = ()
    job_url: re.Pattern
    uses_context = True  # the source's company is the employer when the payload names none

    def board_from_url(self, url: str) -> str | None:
        """The board id a URL of this provider names (None when it names none)."""
        from gigflow.adapters.ats.recognise import board_of

        ref = board_of(url)
        return ref.board if ref is not None and ref.provider == self.parser_key else None

    def is_payload(self, head: bytes) -> bool:
        raise NotImplementedError

    def read(self, data: Any, url: str) -> ExtractionResult:
        raise NotImplementedError

    def supports(self, url: str, content: bytes | str) -> bool:
        if host_matches(url, *self.hosts):
            return True
        head = content[:20000] if isinstance(content, bytes) else content[:20000].encode()
        return looks_like_json(content) and self.is_payload(head)

    def extract(self, content: bytes | str, *, url: str, context: ExtractionContext | None = None) -> ExtractionResult:
        extracted = self.extract_payload(content, url=url)
        board = None
        try:
            board = self.board_from_url(url) or next(
                (self.board_from_url(job.url) for job in extracted.jobs if job.url and self.board_from_url(job.url)), None)
            if board is None:  # jobs on the employer's own site (Greenhouse with a custom domain): its name
                board = next((host_of(job.url) for job in extracted.jobs if job.url and "." in host_of(job.url)
                              and not host_matches(job.url, *self.hosts, "localhost", "example", "test")), None)
        except (ValueError, TypeError):
            pass
        fill_employer(extracted.jobs, company=(context.company if context else None), board=board_name(board))
        return extracted

    def extract_payload(self, content: bytes | str, *, url: str) -> ExtractionResult:
        if not looks_like_json(content):
            jobs = board_candidates(content, url=url, job_url=self.job_url, hosts=self.hosts)
            return result(self, jobs, kind="listing",
                          warnings=[] if jobs else [f"{self.parser_key} board: no job links"])
        try:
            data = load_json(content)
        except PayloadError as exc:
            return failed(self, exc)
        return self.read(data, url)


def looks_like_json(content: bytes | str) -> bool:
    head = (content[:64] if isinstance(content, bytes) else content[:64].encode()).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"{", b"[")


__all__ = ["BASELINE", "AtsAdapter", "PayloadError", "as_list", "ats_job", "board_segment", "failed", "fill_employer",
           "looks_like_json", "query_int", "result", "with_query"]
