"""The generic HTML adapter: the chain's last resort for a page no structured data or specialised adapter reads."""

from __future__ import annotations

from gigflow.adapters.common import as_bytes
from gigflow.adapters.generic.page import read_page
from gigflow.adapters.generic.patterns import LEGAL_HEADING, TITLE_SEPARATOR
from gigflow.adapters.types import ExtractionContext, ExtractionResult

BASE_CONFIDENCE = 0.45
MAX_CONFIDENCE = 0.75


class GenericHtmlAdapter:
    parser_key = "generic-html"
    # 2.4.10: a heading of section words only ("Key Responsibilities", "Skills Desired") is no title; an h1 in a title
    # block classed "title-header" names no site section; a date beside the title ("Aug 1, 2021") is no place; "Laravel
    # Developer / Prishtine, Kosovo" under the title "Laravel Developer" is the place after it; "Acme | Careers - QA
    # Engineer" names Acme the employer, "Sales Rep - US" no employer "US"; "🌍 Amsterdam" a place like "📍 Amsterdam";
    # 2.4.9: a label written after an icon ("<p><img src=pin.svg> Location: Tallinn</p>") is read; "Belgrade, Serbia.
    # Full time" under the title is a place and a contract; an embedded application form (an iframe of a form
    # builder or an apply page) is the apply URL after the content's apply links;
    # 2.4.8: a title heading "Engineer at Acme" is "Engineer" (Acme the employer); a heading ending in a full-width
    # "？" or "！" is a slogan; a menu's current item (a tab naming the job) is no site section; a copyright line is
    # read past an empty year a script fills ("© <span id=year></span> Acme Co., Ltd."); og:site_name "Acme | a
    # tagline" names Acme; Vietnamese, Turkish and Indonesian apply words ("Ứng tuyển ngay") and contract words ("Toàn
    # thời gian"), "Thời hạn ứng tuyển" a deadline;
    # 2.4.7: a section word alone ("Welder | Career") names no employer, nor an image's file word ("footerIcon"); a
    # copyright "belongs to" its holder ("Bản quyền thuộc về Acme"); places written with accents GeoNames keeps
    # only in longer names ("Hồ Chí Minh"); 2.4.6: a <title> part naming the site's owner ("Careers | UNION", "© Union, LLC") is no place, though a town
    # bears the name; a title taken from a <title> part "Engineer at Crays" is "Engineer"; 2.4.5: the office the job's opening names ("Per la sede di Lomagna cerchiamo") is its location, a line of only
    # employment types under a heading repeating the title ("Internship" in a page header's hero) its type; 2.4.4: Vietnamese, Turkish and Indonesian field labels ("Mức lương", "Loại hình công việc", "Son başvuru
    # tarihi"); 2.4.3: a heading's small place ("Welder <small>Berlin</small>") is no part of the title, an amount open
    # above ("$650+") a minimum; 2.4.2: "Software Engineer - NY" (half a place) may be the title, no development
    # host's or home-page canonical as the job's URL, no footer block's column heading as a label; 2.4.1: "company-stats" no name, "Acme Jobs"
    # names Acme, a facts line's places; 2.4: hiring announcements; 2.3: CJK section headings, recruiting-site names
    parser_version = "2.4.10"
    uses_context = True

    def supports(self, url: str, content: bytes | str) -> bool:
        head = as_bytes(content)[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        return not head.startswith((b"{", b"[", b"<?xml", b"<rss", b"<feed"))

    def extract(self, content: bytes | str, *, url: str, context: ExtractionContext | None = None) -> ExtractionResult:
        page, warnings = read_page(content, url, context)
        if page is None:
            return self._result([], warnings)
        notice = legal_notice(page)
        if notice:
            return self._result([], warnings + [f"generic-html: a legal notice's page ({notice!r}), no vacancy"])
        job = page.job()
        if job is None:
            best = "; ".join(f"{c.text[:60]!r} ({c.source}, {c.score:.1f})" for c in page.rejected_titles[:3])
            return self._result([], warnings + [f"generic-html: no recognisable title (no title candidate"
                                                f"{'; best rejected: ' + best if best else ''})"])
        if not job.is_storable():
            return self._result([], warnings + ["generic-html: no http(s) URL"])
        missing = [f for f in ("employer", "location", "description") if not getattr(job, f)]
        confidence = round(min(MAX_CONFIDENCE, MAX_CONFIDENCE - 0.1 * len(missing)), 3)
        confidence = max(BASE_CONFIDENCE, confidence)
        if missing:
            warnings.append(f"generic-html: missing {', '.join(missing)}")
        return self._result([job], warnings, confidence)

    def _result(self, jobs, warnings, confidence=0.0) -> ExtractionResult:
        return ExtractionResult(jobs=jobs, parser_key=self.parser_key, parser_version=self.parser_version,
                                confidence=confidence if jobs else 0.0, warnings=warnings, kind="detail")


def legal_notice(page) -> str:
    """The legal notice a page is ("Privacy Policy", "Impressum"), by its first <h1> or, without one, its
    <title>'s first part; '' for any other page. A cookie banner's and a footer's links lead every first crawl of
    a listing there, and the generic reading would take the notice's heading for a job's title."""
    heading = page.root.find(".//h1")
    if heading is not None:
        text = " ".join(heading.text_content().split())
    else:
        text = (TITLE_SEPARATOR.split(page.meta.get("<title>", "")) or [""])[0]
    text = text.strip(" .:")
    return text if LEGAL_HEADING.match(text) else ""
