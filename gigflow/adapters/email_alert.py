"""Job-alert e-mail: MIME decoded (attachments ignored), one candidate per labelled job link.

Parser key `email` accepts labelled http(s) links from any sender; `email:<board-domain>` is a platform
mailbox: only labelled HTTPS links on that job-board domain count. Resolving the original employer behind a
platform alert is a separate, bounded step; this adapter keeps the alias and provenance for it.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from lxml import etree
from lxml import html as lxml_html

from gigflow.adapters.common import as_bytes, clean_text, host_matches
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult

PLATFORM_CONFIDENCE = 0.75
OPEN_CONFIDENCE = 0.65
MAX_PART_BYTES = 2_000_000
MAX_LINKS = 500

# Links that are never vacancies: list management, legal, account and help pages, open/click trackers.
DROPPED_WORDS = re.compile(
    r"unsubscribe|uitschrijven|afmelden|abbestellen|d[ée]sinscri|opt[-_ ]?out|manage[-_ ]?(alerts|subscriptions|"
    r"preferences)|preferences|privacy|cookie|terms|account|settings|login|sign[-_ ]?in|password|help|support|faq|"
    r"contact[-_ ]?us|view[-_ ]?in[-_ ]?browser|webversion", re.I)
TRACKING_HOST = re.compile(r"^(click|clicks|links?|track(ing)?|trk|email|e|mail|em|open|ablink|sendgrid|mandrill)\.", re.I)
TRACKING_PATH = re.compile(r"/(track|tracking|trk|click|open|wf/click|wf/open|ls/click|pixel)(/|$|\?)", re.I)
TRACKING_PARAMS = re.compile(r"^(utm_|mc_|trk|trackingid|refid|midtoken|eid$|ssid$|_hs)", re.I)
GENERIC_LABELS = {"", "here", "click here", "view", "view job", "more", "read more", "see more", "apply",
                  "apply now", "open", "bekijk", "meer", "hier", "details", "link"}


class EmailAdapter:
    parser_key = "email"
    parser_version = "1.0.0"

    def __init__(self, board_domain: str | None = None):
        self.board_domain = (board_domain or "").lower().strip(".") or None

    def supports(self, url: str, content: bytes | str) -> bool:
        head = as_bytes(content)[:4096]
        return url.lower().endswith(".eml") or (
            re.search(rb"^(from|to|subject|message-id|mime-version):", head, re.I | re.M) is not None
            and re.search(rb"^(mime-version|content-type):", head, re.I | re.M) is not None)

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
        message = email.message_from_bytes(as_bytes(content), policy=email.policy.default)
        warnings: list[str] = []
        provenance = {key: " ".join(str(message.get(header)).split())[:300] for key, header in
                      (("mailbox", "Delivered-To"), ("to", "To"), ("from", "From"), ("subject", "Subject"),
                       ("message_id", "Message-ID"), ("date", "Date")) if message.get(header)}
        provenance = {k: v for k, v in provenance.items() if v}
        if self.board_domain:
            provenance["platform"] = self.board_domain
        links = list(_links(message, warnings))
        jobs: dict[str, ExtractedJob] = {}
        dropped = 0
        confidence = PLATFORM_CONFIDENCE if self.board_domain else OPEN_CONFIDENCE
        for href, label, part in links[:MAX_LINKS]:
            reason = self._rejection(href, label)
            if reason:
                dropped += 1
                continue
            canonical = _without_tracking(href)
            if canonical in jobs:
                continue
            job = ExtractedJob(title=label, url=canonical, apply_url=canonical, provenance=dict(provenance))
            job.evidence = {
                "title": Evidence(method="mail-anchor", snippet_or_path=f"{part}: <a> text {label[:200]!r}",
                                  confidence=confidence),
                "url": Evidence(method="mail-anchor", snippet_or_path=f"{part}: <a href> {href[:300]}",
                                confidence=confidence),
            }
            job.evidence["apply_url"] = job.evidence["url"]
            jobs[canonical] = job
        if dropped:
            warnings.append(f"email: {dropped} link(s) dropped (unsubscribe, account, help, tracking, unlabelled"
                            + (f" or off {self.board_domain})" if self.board_domain else ")"))
        if jobs:
            warnings.append("email: employer not resolved (a separate bounded step)")
        return ExtractionResult(jobs=list(jobs.values()), parser_key=self.parser_key,
                                parser_version=self.parser_version, confidence=confidence if jobs else 0.0,
                                warnings=warnings, kind="listing")

    def _rejection(self, href: str, label: str) -> str | None:
        parts = urlsplit(href)
        host = (parts.hostname or "").lower()
        if parts.scheme not in ("http", "https") or not host:
            return "not http(s)"
        if self.board_domain and (parts.scheme != "https" or not host_matches(href, self.board_domain)):
            return "off the platform domain"
        if label.lower().strip(" .:>»›→") in GENERIC_LABELS or len(label) < 4:
            return "unlabelled"
        if DROPPED_WORDS.search(parts.path) or DROPPED_WORDS.search(label):
            return "service link"
        if TRACKING_PATH.search(parts.path) or (TRACKING_HOST.match(host) and not self.board_domain):
            return "tracking link"
        return None


def _links(message: EmailMessage, warnings: list[str]):
    """(href, label, part name) for every anchor in the HTML parts; bare URLs in text parts only when there is no
    HTML alternative. Attachments are never read."""
    parts = [(index, part) for index, part in enumerate(message.walk())
             if not part.is_multipart() and part.get_content_disposition() != "attachment"
             and part.get_content_type() in ("text/html", "text/plain")]
    html_seen = any(part.get_content_type() == "text/html" for _, part in parts)
    for index, part in parts:
        kind = part.get_content_type()
        if kind == "text/plain" and html_seen:
            continue
        try:
            text = part.get_content()
        except (LookupError, ValueError) as exc:
            warnings.append(f"email part {index}: undecodable ({exc})")
            continue
        text = text[:MAX_PART_BYTES]
        if kind == "text/html":
            try:
                root = lxml_html.document_fromstring(text or "<html/>")
            except (etree.ParserError, ValueError):
                continue
            etree.strip_elements(root, "script", "style", "template", with_tail=False)
            for anchor in root.iter("a"):
                href = (anchor.get("href") or "").strip()
                if href:
                    yield urljoin("", href), clean_text(anchor.text_content(), 300) or "", f"part[{index}] text/html"
        else:
            # Plain-text alerts: "Label\nhttps://..." pairs; the line before a bare URL is its label.
            lines = [line.strip() for line in text.splitlines()]
            for number, line in enumerate(lines):
                for match in re.finditer(r"https?://[^\s<>\"')]+", line):
                    label = line[: match.start()].strip(" :-–") or (lines[number - 1] if number else "")
                    yield match.group(0), clean_text(label, 300) or "", f"part[{index}] text/plain"


def _without_tracking(href: str) -> str:
    parts = urlsplit(href)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not TRACKING_PARAMS.match(k)]
    return urlunsplit(parts._replace(query=urlencode(query), fragment=""))
