"""Dates as ISO 8601, from whatever a page, feed or ATS payload writes: pure, bounded, no clock of its own.

Relative dates ("3 days ago", "gisteren") are read against the fetch time the caller passes in; without one they
are not guessed. `dateparser` does the language work (en, nl, de, fr and more), so no word lists live here.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from functools import lru_cache

# A date is short: longer text is cut before parsing so a hostile field costs bounded time.
MAX_DATE_TEXT = 80
LANGUAGES = ("en", "nl", "de", "fr", "es", "it", "pt", "sk", "cs", "pl", "da", "sv", "nb", "fi", "ru")
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
_EPOCH = re.compile(r"^\d{10}(\d{3})?$")
_HAS_TIME = re.compile(r"\d{1,2}:\d{2}")
# Words of a relative date (en, nl, de, fr, es, it, pt, cs, sk, pl, ru): "3 days ago", "hace 3 días", "před 2 dny",
# "pred 3 dňami", "3 dni temu", "2 дня назад", "dnes", "вчера".
_RELATIVE = re.compile(r"\b(ago|today|yesterday|geleden|vandaag|gisteren|vor|heute|gestern|il y a|aujourd|hier|"
                       r"hace|hoy|ayer|fa|oggi|ieri|há|hoje|ontem|před|pred|dnes|včera|dnešek|temu|dzisiaj|dziś|"
                       r"wczoraj|назад|сегодня|вчера)\b", re.I)
# The relative phrase inside a longer text: a lead word and its amount ("hace 5 días", "před týdnem"), an amount and
# its trailing word ("3 days ago", "3 dni temu", "3 дня назад"), or a day's name ("today", "dnes", "вчера").
_RELATIVE_PHRASE = re.compile(r"\b(?:hace|před|pred|vor|il y a|há)\s+(?:\d+\s+)?[^\W\d_]+|"
                              r"(?:\d+\s+)?[^\W\d_]+\s+(?:ago|geleden|temu|назад|fa)\b|"
                              r"\b(?:today|yesterday|vandaag|gisteren|heute|gestern|aujourd'hui|hier|hoy|ayer|oggi|ieri|"
                              r"hoje|ontem|dnes|včera|dzisiaj|dziś|wczoraj|сегодня|вчера)\b", re.I)
_ONE_DAY = timedelta(days=1)
_UTC_STAMP = re.compile(r"^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)\s*(?:UTC|GMT|Z)$")
_RFC_2822 = re.compile(r"^(?:[A-Z][a-z]{2}, )?\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}(?::\d{2})? (?:[+-]\d{4}|GMT|UTC|UT)$")
_DOTTED = re.compile(r"\b\d{1,2}\.\d{1,2}\.\d{2,4}\b")
_DIGITS_OR_MONTH = re.compile(r"\d|[^\W\d_]{3,}")


@lru_cache(maxsize=1)
def _parser():
    """dateparser loads its language data on first use; most crawls never need it (ISO dates are parsed here)."""
    import dateparser

    return dateparser


def normalise_date(value, *, fetched_at: datetime | None = None) -> str | None:
    """ISO 8601 for one date: `YYYY-MM-DD`, or a full timestamp when the source gives a time. None if unreadable.

    Accepts ISO strings (kept as written), epoch seconds or milliseconds, `date`/`datetime` objects and free text in
    many languages. A relative date needs `fetched_at`; a date after the fetch (a typo, a placeholder) is refused.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return _iso_datetime(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(int(value))
    text = " ".join(str(value).split())[:MAX_DATE_TEXT]
    relative = bool(_RELATIVE.search(text))
    if relative and fetched_at is None:
        return None
    if not relative and _DURATION.search(text) and not _YEAR_OR_DATE.search(text):
        # "32 hours a week", "3 days a week", "1 week": a duration; dateparser would count it back from the
        # clock (a different "date" every run)
        return None
    base = fetched_at.replace(tzinfo=None, second=0, microsecond=0) if relative else None
    iso = _parse_text(text, base)
    if iso and fetched_at is not None and iso[:10] > (fetched_at + _ONE_DAY).date().isoformat():
        return None  # a posting date after the fetch (time zones aside) is a placeholder or a typo
    return iso


@lru_cache(maxsize=4096)
def _parse_text(text: str, base: datetime | None) -> str | None:
    """Cached by text (and the fetch minute for relative dates): a feed or board repeats the same dates."""
    if not text or not _DIGITS_OR_MONTH.search(text):
        return None
    if _EPOCH.match(text):
        seconds = int(text) / (1000 if len(text) == 13 else 1)
        return _iso_datetime(datetime.fromtimestamp(seconds, tz=timezone.utc))
    if _ISO.match(text):
        try:
            datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
        except ValueError:
            return None
        return text.replace(" ", "T")  # already ISO 8601: kept as the source wrote it
    utc = _UTC_STAMP.match(text)
    if utc:  # "2023-07-25 17:53:46 UTC" (Recruitee): ISO but for the zone's name
        return f"{utc.group(1)}T{utc.group(2)}+00:00"
    if _RFC_2822.match(text):
        try:
            return _iso_datetime(parsedate_to_datetime(text))
        except (TypeError, ValueError, IndexError):
            pass
    settings = {"PREFER_DAY_OF_MONTH": "first"}  # aware only when the text names a zone
    if _DOTTED.search(text):
        settings["DATE_ORDER"] = "DMY"  # 03.11.2026 is the 3rd of November wherever dots separate a date
    if base is not None:
        settings["RELATIVE_BASE"] = base
    try:
        parsed = _parser().parse(text, languages=list(LANGUAGES), settings=settings)
    except (ValueError, TypeError, OverflowError, RecursionError):
        return None
    if parsed is None or not 1900 <= parsed.year <= 2100:
        return None
    return _iso_datetime(parsed) if _HAS_TIME.search(text) and base is None else parsed.date().isoformat()


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mrt|mär|mai|okt|dez|janv|févr|avr|juil|déc)[a-zé]*\.?"
_DATE_SHAPES = re.compile(rf"\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}\b|"
                          rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b|"
                          rf"\b\d{{1,2}}\.?\s+{_MONTH}\s+\d{{4}}\b", re.I)


def is_written_date(text: str) -> bool:
    """The whole text is a date as pages write one ("Aug 1, 2021", "1 August 2021", "2021-08-01", "01/08/2021")."""
    return _DATE_SHAPES.fullmatch(" ".join(text.split())) is not None


# A span of time, not a day: "32 hours", "3 days", "1 week", "6 Monate" (with no year or date beside it).
_DURATION = re.compile(r"\b\d+(?:[.,]\d+)?\s*(?:hours?|hrs?|days?|weeks?|months?|years?|stunden|std|tage?n?|wochen?|"
                       r"monate?n?|jahre?n?|uur|dagen|weken|maanden|heures?|jours?|semaines?|mois|ans?|horas?|días|"
                       r"semanas?|meses|años|ore|giorni|settimane|mesi|anni)\b", re.I)
_YEAR_OR_DATE = re.compile(r"\b(?:19|20)\d\d\b|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}")


def find_date(text: str | None, *, fetched_at: datetime | None = None) -> str | None:
    """The date a short text states ("11/12/2010 (15 days ago)", "by Acme on June 3, 2010", "3 days ago"):
    the first date-shaped piece of it (an explicit date beats a relative one), else the whole text."""
    if not text:
        return None
    text = " ".join(text.split())[:200]
    for match in _DATE_SHAPES.finditer(text):
        found = normalise_date(match.group(0), fetched_at=fetched_at)
        if found:
            return found
    found = normalise_date(text[:MAX_DATE_TEXT], fetched_at=fetched_at)
    if found or fetched_at is None:
        return found
    # "Publicado hace 5 días", "Zveřejněno před 3 dny", "опубликовано 3 дня назад": the relative phrase alone.
    match = _RELATIVE_PHRASE.search(text)
    return normalise_date(match.group(0), fetched_at=fetched_at) if match else None


def _iso_datetime(value: datetime) -> str:
    return value.isoformat() if value.tzinfo else value.replace(microsecond=0).isoformat()


def normalise_job_dates(job, *, fetched_at: datetime | None = None):
    """Every adapter's `date_posted` and `valid_through` as ISO 8601; the source's own text kept in `raw`.

    An unreadable date is dropped from the field (with its evidence) but stays in `raw`, so nothing is lost.
    `valid_through` may lie after the fetch, so only `date_posted` is checked against it.
    """
    for field in ("date_posted", "valid_through"):
        original = getattr(job, field)
        if not original:
            continue
        iso = normalise_date(original, fetched_at=fetched_at if field == "date_posted" else None)
        if iso == original:
            continue
        job.raw[f"{field}_text"] = original
        setattr(job, field, iso)
        if iso is None:
            job.evidence.pop(field, None)
    return job
