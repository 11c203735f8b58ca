"""Whether the page says its vacancy is closed ("This position has been filled", "Stelle ist besetzt"): a short
visible block of the posting's own, not a link, not another job's card, not the site's frame, not hidden (a page
often carries a hidden "no longer available" message that its script shows only when the job closes)."""

from __future__ import annotations

from gigflow.adapters.text_patterns import normalise
from gigflow.adapters.types import Evidence
from gigflow.vacancy_status import CLOSED_NOTICE, closed_badge, without_badge

NOTICE_MAX_WORDS = 40
NOTICE_MAX_CHARS = 600  # 40 words and more: a longer block is no notice
MAX_SCANNED = 5_000


def _short_text(element) -> str:
    """The element's words, or '' once they run past NOTICE_MAX_CHARS: its text is read only that far, so a scan
    over every element of a large page stays linear in the page rather than reading each ancestor whole."""
    parts, size = [], 0
    for piece in element.itertext():
        parts.append(piece)
        size += len(" ".join(piece.split()))  # indentation runs in pretty-printed HTML do not count
        if size > NOTICE_MAX_CHARS:
            return ""
    return " ".join("".join(parts).split())


class JobStatus:
    """Mixin of the page (gigflow.adapters.generic.page.Page): closed_notice."""

    def closed_notice(self) -> tuple[str, Evidence] | None:
        for element in [e for e, chrome in self._chrome.items() if not self._in_card[e]][:MAX_SCANNED]:
            if element.tag in ("html", "body", "a") or self._in_site_frame(element):
                continue
            text = _short_text(element)
            if not text or len(text.split()) > NOTICE_MAX_WORDS or not CLOSED_NOTICE.search(text):
                continue
            if any(CLOSED_NOTICE.search(_short_text(child)) for child in element if isinstance(child.tag, str)):
                continue  # the innermost block says it
            if any(a.tag == "a" for a in element.iterancestors()) or self._hidden(element):
                continue
            return text[:300], Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} {text[:80]!r}",
                                        confidence=0.6)
        return self._closed_badge()

    def _closed_badge(self) -> tuple[str, Evidence] | None:
        """A status badge on the heading that states the job's title ("Cloud Engineer <span>hired</span>")."""
        title = self.title()
        if not title:
            return None
        wanted = normalise(title[0])
        for heading in self.root.iter("h1", "h2", "h3"):
            badge = closed_badge(heading)
            if badge is None or self._in_site_frame(heading):
                continue
            rest = without_badge(" ".join(heading.text_content().split()), badge)
            if rest is not None and normalise(rest) == wanted:
                word = " ".join(badge.text_content().split())
                return word, Evidence(method="text-pattern", confidence=0.6,
                                      snippet_or_path=f"{self.path(badge)} badge {word!r} on the title")
        return None
