"""When a job was posted and until when it takes applications: labels, `<time>`, meta and "posted ..." phrases,
read by `gigflow.adapters.dates` against the fetch time."""

from __future__ import annotations

from gigflow.adapters.dates import find_date, normalise_date
from gigflow.adapters.generic.patterns import CLOSING_PHRASE, DATE_META, POSTED_PHRASE
from gigflow.adapters.types import Evidence


BYLINE_MAX_CHARS = 300


class JobDates:
    """Mixin of the page (gigflow.adapters.generic.page.Page): date_posted and valid_through."""

    def date_posted(self) -> tuple[str, Evidence] | None:
        fetched_at = self.context.fetched_at
        for found in self.labels.get("date_posted", []):
            iso = find_date(found.value, fetched_at=fetched_at)
            if iso:
                return iso, self._label_evidence(found, 0.65)
        meta = self._meta_line()
        if meta and meta[2]:
            # "St. George, UT · Full-time · Posted 2026-02-19": the date of the line beside the title.
            match = POSTED_PHRASE.search(meta[2])
            iso = find_date(match.group("date") if match else meta[2], fetched_at=fetched_at)
            if iso:
                return iso, Evidence(method="text-pattern", snippet_or_path=f"{self.path(meta[3])} beside the title, "
                                     f"its date {meta[2][:40]!r}", confidence=0.5)
        for element in self.facts:
            if element.tag == "time" and element.get("datetime"):
                iso = normalise_date(element.get("datetime"), fetched_at=fetched_at)
                if iso:
                    return iso, Evidence(method="css", snippet_or_path=f"{self.path(element)}@datetime",
                                         confidence=0.45)
        for key in DATE_META:
            iso = normalise_date(self.meta.get(key), fetched_at=fetched_at) if self.meta.get(key) else None
            if iso:
                return iso, Evidence(method="meta", snippet_or_path=f"meta {key}", confidence=0.5)
        for element in self.facts[:5_000]:
            text = element.text or ""
            if len(text) > 200 or not POSTED_PHRASE.search(text):
                continue
            own = POSTED_PHRASE.search(" ".join(text.split()))
            whole = " ".join(" ".join(element.itertext()).split())
            if not (own and find_date(own.group("date"), fetched_at=fetched_at)) and len(whole) <= BYLINE_MAX_CHARS:
                text = whole  # "Posted by <a>Acme</a> on <span>Tue, 23 Nov 2021</span>": the date in a child
            match = POSTED_PHRASE.search(" ".join(text.split()))
            iso = find_date(match.group("date"), fetched_at=fetched_at) if match else None
            if iso:
                return iso, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} "
                                                                            f"{match.group(0)[:60]!r}", confidence=0.45)
        return None

    def valid_through(self) -> tuple[str, Evidence] | None:
        for found in self.labels.get("valid_through", []):
            iso = find_date(found.value)
            if iso:
                return iso, self._label_evidence(found, 0.65)
        for element in self.content[:5_000]:
            # "Apply by 31 March 2027", "Bewerben Sie sich bis zum 15.01.2027", "Date limite 12/02/2027".
            text = element.text or ""
            if len(text) > 300 or not CLOSING_PHRASE.search(text):
                continue
            match = CLOSING_PHRASE.search(" ".join(text.split()))
            iso = find_date(match.group("date")) if match else None
            if iso:
                return iso, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} "
                                                                            f"{match.group(0)[:60]!r}", confidence=0.5)
        return None
