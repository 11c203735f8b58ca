"""Normalised job facts beside the raw values, each with the text it came from. Pure; runs on every adapter's jobs.

- salary: min/max/currency/period (``Salary.unit``), an annual figure where the period is known, and the visible
  salary text (``salary_text``), also when it is a pay scale without an amount ("TVöD E9", "according to the
  collective agreement");
- employment types and working pattern in one vocabulary (``EMPLOYMENT_TYPES``), from the adapter's employment
  type, labels and the title ("(Vollzeit)", "Part-time");
- remote, hybrid or onsite from the location, the employment type and the title ("Remote (Europe)", "Anywhere",
  "Homeoffice möglich" in a label); the location text stays what the page says.
"""

from __future__ import annotations

import json
import re

from gigflow.adapters.types import Evidence, ExtractedJob

# One vocabulary for contract and working pattern. Order matters only for display.
EMPLOYMENT_TYPES: dict[str, re.Pattern] = {name: re.compile(pattern, re.I) for name, pattern in (
    ("full_time", r"full[\s_-]?time|\bfulltime|vollzeit|voltijd|temps plein|tiempo completo|tempo integral|"
                  r"heltid|kokoaikai|plný úväzok|plný úvazek|pełny etat|полная занятость|正社員|정규직|toàn thời gian|"
                  r"tam zamanl[ıi]|penuh waktu|sepenuh masa"),
    ("part_time", r"part[\s_-]?time|teilzeit|deeltijd|temps partiel|media jornada|tiempo parcial|deltid|"
                  r"osa-aikai|čiastočný|částečný|частичная|パート|アルバイト|시간제|bán thời gian|yar[ıi] zamanl[ıi]|"
                  r"paruh waktu|separuh masa"),
    ("permanent", r"permanent|unbefristet|festanstellung|vast contract|onbepaalde tijd|\bcdi\b|indefinido|"
                  r"toistaiseksi|trvalý|бессрочн"),
    ("temporary", r"temporary|\btemp\b|befristet|tijdelijk|bepaalde tijd|\bcdd\b|temporal|määräaikai|"
                  r"fixed[\s-]term|interim|zeitarbeit|uitzend|временн"),
    ("contract", r"contractor|^\s*contract\s*$|\bcontract (role|position|job|work|basis)\b|freelance|freiberuf|"
                 r"\bzzp\b|indépendant|autónomo|selbstständig|werkvertrag"),
    ("internship", r"intern(ship)?\b|praktikum|stage\b|stagiair|prácticas|harjoittel|стаж[её]р|インターン|인턴|"
                   r"thực tập|\bstaj\b|\bmagang\b"),
    ("apprenticeship", r"apprentice|ausbildung|\blehre\b|leerling|alternance|apprentissage|oppisopimus"),
    ("volunteer", r"volunteer|ehrenamt|vrijwillig|bénévol|voluntari"),
    ("seasonal", r"seasonal|saison|seizoen|kausi"),
    ("shift", r"shift work|\bshifts?\b|schicht|ploegendienst|travail posté|turnos|vuorotyö"),
    ("mini_job", r"minijob|450[\s-]?€|520[\s-]?€|geringfügig"),
)}
# Remote work in any language: job_facts flags a job remote by it, the generic adapter reads "Remote (Europe)" as a place.
REMOTE = re.compile(r"\b(fully remote|remote|anywhere|work from home|wfh|home[\s-]?office|telework|télétravail|"
                    r"thuiswerk|teletrabajo|etätyö|удал[её]нн?\w*)\b", re.I)
HYBRID = re.compile(r"\b(hybrid|hybride|híbrido|hybridi|гибрид\w*)\b", re.I)
ONSITE = re.compile(r"\b(on[\s-]?site|in[\s-]office|vor ort|op locatie|sur site|presencial|präsenz)\b", re.I)
# How many periods make a year (a 40-hour week, 52 weeks, 260 working days).
PER_YEAR = {"HOUR": 2080, "DAY": 260, "WEEK": 52, "MONTH": 12, "YEAR": 1}


def employment_types(*texts: str | None) -> list[str]:
    """The vocabulary's names every text mentions, in vocabulary order."""
    joined = " | ".join(t for t in texts if t)
    return [name for name, pattern in EMPLOYMENT_TYPES.items() if pattern.search(joined)]


def only_employment_type(text: str | None) -> bool:
    """Whether a text says nothing but employment types ("Full-time/ Permanent", "Vollzeit, unbefristet")."""
    rest = text or ""
    for pattern in EMPLOYMENT_TYPES.values():
        rest = pattern.sub(" ", rest)
    return rest != (text or "") and not re.search(r"[^\W\d_]", rest)


def remote_kind(text: str | None) -> str | None:
    """remote, hybrid or onsite as a text says it (hybrid wins over remote: "hybrid, 2 days remote")."""
    if not text:
        return None
    if HYBRID.search(text):
        return "hybrid"
    if REMOTE.search(text):
        return "remote"
    if ONSITE.search(text):
        return "onsite"
    return None


def _visible_salary_text(raw: str | None) -> str | None:
    """The salary as a person reads it: a JSON payload restated by an adapter is no visible text."""
    text = " ".join((raw or "").split())
    if not text or text.startswith(("{", "[")):
        if text.startswith("{"):
            try:  # JSON-LD's baseSalary with a text value ("According to Finnish Collective Agreement")
                value = json.loads(text).get("value")
                inner = value.get("value") if isinstance(value, dict) else value
                if isinstance(inner, str) and re.search(r"[^\W\d_]", inner):
                    return inner[:300]
            except (ValueError, AttributeError):
                return None
        return None
    return text[:300]


def add_facts(job: ExtractedJob) -> ExtractedJob:
    """Fill salary_text, the annual salary, employment_types and remote (each with evidence) where the job's own
    values say them; an adapter's value is never overwritten."""
    salary = job.salary
    if salary is not None:
        if job.salary_text is None:
            text = _visible_salary_text(salary.raw)
            if text:
                job.salary_text = text
                source = job.evidence.get("salary")
                job.evidence.setdefault("salary_text", Evidence(
                    method=source.method if source else "text-pattern",
                    snippet_or_path=(source.snippet_or_path if source else "salary")[:500],
                    confidence=source.confidence if source else 0.5))
        period = (salary.unit or "").upper()
        if period in PER_YEAR and salary.annual_min is None and (salary.min or salary.max):
            salary.annual_min = round((salary.min or salary.max) * PER_YEAR[period], 2)
            salary.annual_max = round((salary.max or salary.min) * PER_YEAR[period], 2)
    if not job.employment_types:
        found = employment_types(job.employment_type, job.title)
        if found:
            job.employment_types = found
            where = "employment_type" if employment_types(job.employment_type) else "title"
            job.evidence.setdefault("employment_types", Evidence(
                method="text-pattern", snippet_or_path=f"{where}: {str(getattr(job, where))[:200]!r}",
                confidence=0.6 if where == "employment_type" else 0.45))
    if not job.remote:
        for name in ("location", "employment_type", "title"):
            kind = remote_kind(getattr(job, name))
            if kind:
                job.remote = kind
                job.evidence.setdefault("remote", Evidence(
                    method="text-pattern", snippet_or_path=f"{name}: {str(getattr(job, name))[:200]!r}",
                    confidence=0.6 if name == "location" else 0.45))
                break
    return job
