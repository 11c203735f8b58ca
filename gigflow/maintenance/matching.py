"""Is this the same vacancy? Pure functions over job field dicts: exact identity keys, a description simhash and
a fuzzy score (rapidfuzz). No network, no database."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from rapidfuzz import fuzz
from w3lib.url import canonicalize_url

# Query parameters that say how a visitor arrived, never which vacancy: dropped before URLs are compared.
TRACKING_PARAMS = frozenset({
    "gclid", "fbclid", "msclkid", "dclid", "yclid", "mc_cid", "mc_eid", "_hsenc", "_hsmi", "ref", "referrer",
    "source", "src", "gh_src", "lever-source", "lever-origin", "trk", "trackingid", "campaign", "cmp", "igshid",
    "share", "sharedby", "from", "iis", "iisn", "jobpipeline", "sid",
})
TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "hsa_")

# An ATS posting id inside a URL: a career page links its Greenhouse posting as ?gh_jid=ID; the boards name it in
# the path. (provider, host suffix, path regex).
_ATS_PATHS = (
    ("greenhouse", "greenhouse.io", re.compile(r"/jobs/(\d{4,})")),
    ("lever", "lever.co", re.compile(r"^/[^/]+/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")),
    ("ashby", "ashbyhq.com", re.compile(r"^/[^/]+/([0-9a-f]{8}-[0-9a-f-]{27})")),
    ("smartrecruiters", "smartrecruiters.com", re.compile(r"^/[^/]+/(\d{6,})")),
    ("workable", "workable.com", re.compile(r"/j/([0-9A-F]{10})", re.I)),
    ("recruitee", "recruitee.com", re.compile(r"/o/([a-z0-9-]+)")),
)
_ATS_QUERY = {"gh_jid": "greenhouse", "lever_jid": "lever"}
ATS_PROVIDERS = frozenset(p for p, _, _ in _ATS_PATHS)


def strip_tracking(url: str | None) -> str | None:
    """The URL without tracking parameters or fragment, canonicalized (sorted query, normalised escapes)."""
    if not url or not url.lower().startswith(("http://", "https://")):
        return None
    parts = urlsplit(url.strip())
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if k.lower() not in TRACKING_PARAMS and not k.lower().startswith(TRACKING_PREFIXES)]
    path = parts.path.rstrip("/") or "/"
    cleaned = urlunsplit((parts.scheme.lower(), (parts.hostname or "") + (f":{parts.port}" if parts.port else ""),
                          path, urlencode(query), ""))
    return canonicalize_url(cleaned, keep_fragments=False).replace("https://", "http://", 1)


def ats_ids(url: str | None) -> set[str]:
    """``ats:<provider>:<id>`` for each ATS posting id the URL names (query ``gh_jid`` or a board's path)."""
    if not url:
        return set()
    parts = urlsplit(url)
    found = {f"ats:{_ATS_QUERY[k.lower()]}:{v}" for k, v in parse_qsl(parts.query)
             if k.lower() in _ATS_QUERY and v.strip()}
    host = (parts.hostname or "").lower()
    for provider, suffix, pattern in _ATS_PATHS:
        if host == suffix or host.endswith("." + suffix):
            match = pattern.search(parts.path)
            if match:
                found.add(f"ats:{provider}:{match.group(1).lower()}")
    return found


def match_keys(job: dict) -> dict[str, str]:
    """Exact identity keys of one sighting -> the evidence kind each stands for."""
    keys: dict[str, str] = {}
    for role in ("url", "apply_url"):
        url = job.get(role)
        cleaned = strip_tracking(url)
        if cleaned:
            keys.setdefault(f"link:{cleaned}", "same_apply_url" if role == "apply_url" else "same_url")
        for key in ats_ids(url):
            keys.setdefault(key, "ats_id")
    provider, external_id = job.get("parser_key"), job.get("external_id")
    if provider in ATS_PROVIDERS and external_id:
        keys.setdefault(f"ats:{provider}:{str(external_id).lower()}", "ats_id")
    return keys


_WORD = re.compile(r"\w+", re.UNICODE)


def simhash(text: str | None) -> int | None:
    """A 64-bit simhash over word trigrams (as a signed bigint), or None for text too short to mean anything."""
    words = _WORD.findall((text or "").lower())
    if len(words) < 8:
        return None
    weights = [0] * 64
    for i in range(len(words) - 2):
        h = int.from_bytes(hashlib.blake2b(" ".join(words[i:i + 3]).encode(), digest_size=8).digest(), "big")
        for bit in range(64):
            weights[bit] += 1 if h >> bit & 1 else -1
    value = sum(1 << bit for bit in range(64) if weights[bit] > 0)
    return value - (1 << 64) if value >= 1 << 63 else value


def simhash_similarity(a: int | None, b: int | None) -> float | None:
    if a is None or b is None:
        return None
    return 1.0 - bin((a ^ b) & (1 << 64) - 1).count("1") / 64.0


def employer_key(employer: str | None) -> str:
    """Blocking key: the employer lower-cased, punctuation and legal suffixes dropped."""
    words = _WORD.findall((employer or "").lower())
    while words and words[-1] in {"inc", "ltd", "llc", "gmbh", "ag", "bv", "sa", "plc", "co", "corp", "limited"}:
        words.pop()
    return " ".join(words)


@dataclass
class FuzzyMatch:
    score: float
    parts: dict = field(default_factory=dict)


def _norm(text: str | None) -> str:
    return " ".join(_WORD.findall((text or "").lower()))


def fuzzy_match(a: dict, b: dict) -> FuzzyMatch:
    """How alike two sightings of one employer are (0..1) and why. The title must nearly agree, a location named
    on both sides must agree (the same title in another city is another vacancy), and descriptions present on
    both sides must agree by simhash or text; without descriptions the score stays at the threshold's edge."""
    title = fuzz.token_sort_ratio(_norm(a.get("title")), _norm(b.get("title"))) / 100.0
    parts: dict = {"title": round(title, 3)}
    loc_a, loc_b = _norm(a.get("location")), _norm(b.get("location"))
    location = fuzz.token_set_ratio(loc_a, loc_b) / 100.0 if loc_a and loc_b else None
    if location is not None:
        parts["location"] = round(location, 3)
    description = simhash_similarity(a.get("simhash"), b.get("simhash"))
    if description is not None:
        text = fuzz.ratio(_norm(a.get("description"))[:3000], _norm(b.get("description"))[:3000]) / 100.0
        description = max(description if description >= 0.9 else 0.0, text)
        parts["description"] = round(description, 3)
    if title < 0.9 or (location is not None and location < 0.9):
        return FuzzyMatch(score=min(title, location if location is not None else 1.0) * 0.5, parts=parts)
    if description is None:
        score = 0.9 * title * (location if location is not None else 0.95)
    else:
        score = 0.35 * title + 0.25 * (location if location is not None else 0.9) + 0.4 * description
    return FuzzyMatch(score=round(score, 4), parts=parts)



AMBIGUITY_MARGIN = 0.02


def best_candidate(job: dict, canonicals: dict[int, list[dict]], threshold: float):
    """The canonical job a sighting without an exact key belongs to: (canonical id, FuzzyMatch, sighting) or None.

    Sightings from the job's own source and strategy are skipped (one listing naming two postings means two
    vacancies); a canonical job whose sightings name locations must name the job's; and when several canonical
    jobs qualify about equally (the same posting text in several cities, and the job names none) nothing is
    merged: a wrong merge costs more than a missed one."""
    scored = []
    for canonical_id, cands in canonicals.items():
        cands = [c for c in cands if (c.get("source_id"), c.get("parser_key"))
                 != (job.get("source_id"), job.get("parser_key"))]
        located = [_norm(c.get("location")) for c in cands if c.get("location")]
        where = _norm(job.get("location"))
        if where and located and max(fuzz.token_set_ratio(where, loc) for loc in located) < 90:
            continue
        best = None
        for cand in cands:
            found = fuzzy_match(job, cand)
            if found.score >= threshold and (best is None or found.score > best[0].score):
                best = (found, cand)
        if best:
            scored.append((best[0].score, canonical_id, best[0], best[1]))
    if not scored:
        return None
    scored.sort(key=lambda s: (-s[0], s[1]))
    if len(scored) > 1 and scored[0][0] - scored[1][0] < AMBIGUITY_MARGIN:
        return None
    return scored[0][1], scored[0][2], scored[0][3]
