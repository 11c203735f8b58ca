"""Pure text patterns the HTML adapters share: salary amounts and units, dates, multilingual field labels."""

from __future__ import annotations

import re
import unicodedata

from price_parser import Price

from gigflow.adapters.types import Salary

LABELS: dict[str, tuple[str, ...]] = {
    "title": ("job title", "position title", "title of position", "position", "vacancy", "role", "functie",
              "functietitel", "vacaturetitel", "functienaam", "stellenbezeichnung", "stellentitel", "position/titel",
              "jobtitel", "intitulé du poste", "titre du poste", "poste", "intitulé"),
    "employer": ("company", "company name", "employer", "hiring company", "hiring organisation", "organization name",
                 "werkgever naam", "naam werkgever", "firmenname", "nom de l'entreprise", "société", "organisation", "organization", "hiring organization",
                 "werkgever", "bedrijf", "organisatie", "arbeitgeber", "school", "school name", "hiring school",
                 "institution", "schule", "einrichtung", "école", "établissement", "employing organisation",
                 "společnost", "zaměstnavatel", "firma/společnost", "empresa", "empleador", "compañía", "компания",
                 "работодатель", "организация", "yritys", "työnantaja", "pracodawca", "azienda", "unternehmen", "firma", "employeur",
                 "entreprise", "spoločnosť", "zamestnávateľ", "会社名", "企業名", "社名", "기업명", "회사명", "사업장명"),
    "location": ("location", "job location", "work location", "place of work", "city", "town", "locations",
                 "job city", "work place", "worksite", "based in", "region", "werkplaats", "woonplaats",
                 "regio", "plaats van tewerkstelling", "arbeitsplatz", "stadt", "ville", "localisation", "région", "locatie", "standplaats",
                 "werklocatie", "werkplek", "plaats", "standort", "arbeitsort", "einsatzort", "dienstort", "ort",
                 "lieu", "lieu de travail", "miesto práce", "miesto výkonu práce", "místo pracoviště", "místo výkonu práce",
                 "lokalita", "pracoviště", "ubicación", "localización", "lugar de trabajo", "ciudad", "место работы",
                 "город", "адрес", "sijainti", "paikkakunta", "työpaikan sijainti", "miejsce pracy", "lokalizacja",
                 "sede", "luogo di lavoro", "勤務地", "勤務先", "근무지", "địa điểm làm việc", "nơi làm việc",
                 "khu vực", "iş yeri", "çalışma yeri", "lokasi", "lokasi kerja", "penempatan",
                 "근무예정지", "근무지역", "지역", "소재지"),
    "salary": ("salary", "pay", "compensation", "salary range", "base pay", "pay range", "wage", "wages",
               "hourly rate", "rate of pay", "pay rate", "pay scale", "salary grade", "bezahlung", "entgelt", "lohn",
               "verdienst", "salario", "sueldo", "retribución", "palkka", "зарплата", "заработная плата", "salaris", "loon", "gehalt", "vergütung",
               "salaire", "rémunération", "mzda", "plat", "základná zložka mzdy", "給与", "給料", "급여", "임금",
               "mức lương", "mức thu nhập", "thu nhập", "lương", "maaş", "ücret", "gaji"),
    "employment_type": ("employment type", "job type", "contract type", "contract", "employee type", "work type",
                        "working pattern", "working hours", "hours", "schedule", "position type", "type of employment",
                        "arbeitszeit", "arbeitszeitmodell", "vertragsart", "dienstverhältnis", "werktijden",
                        "dienstverband type", "temps de travail", "tipo de contrato", "jornada", "työsuhde",
                        "tyyppi", "занятость", "тип занятости", "график работы", "typ pracovního poměru",
                        "typ úvazku", "úvazek", "druh úväzku", "wymiar etatu", "rodzaj umowy", "tipo de jornada",
                        "modalidad", "work arrangement", "workplace type", "dienstverband", "contracttype",
                        "contractvorm", "beschäftigungsart", "anstellungsart", "type de contrat",
                        "druh pracovného pomeru", "雇用形態", "고용형태", "loại hình công việc",
                        "hình thức làm việc", "çalışma şekli", "çalışma türü", "jenis pekerjaan", "tipe pekerjaan"),
    "valid_through": ("deadline", "apply by", "closing date", "application deadline", "apply before", "closes",
                      "uzávěrka", "termín podání", "plazo", "hakuaika päättyy", "termin składania",
                      "closing", "applications close", "bewerbungsschluss", "bewerben bis", "einsendeschluss",
                      "uiterste reactiedatum", "reageren tot", "date de clôture", "fecha límite", "haku päättyy", "sluitingsdatum",
                      "reageren voor", "solliciteren tot", "bewerbungsfrist", "date limite", "마감일", "접수마감일",
                      "応募締切", "thời hạn nộp hồ sơ", "hạn nộp hồ sơ", "thời hạn ứng tuyển", "hạn ứng tuyển",
                      "son başvuru tarihi", "batas lamaran"),
    "apply_url": ("apply url", "apply link", "application url", "application link", "apply online", "apply at",
                  "sollicitatielink", "bewerbungslink", "lien pour postuler"),
    "date_posted": ("posted", "date", "date posted", "posted on", "published", "publication date", "geplaatst",
                    "gepubliceerd", "veröffentlicht", "date de publication", "post date", "posted date",
                    "posting date", "date of posting", "date listed", "listed on", "published on",
                    "date published", "job posted", "date added", "geplaatst op", "publicatiedatum",
                    "datum geplaatst", "online sinds", "online seit", "veröffentlicht am", "erstellt am",
                    "ausschreibungsdatum", "publicado", "fecha de publicación", "datum zveřejnění", "zveřejněno",
                    "опубликовано", "дата публикации", "julkaistu", "data publikacji", "last edited", "last updated", "updated", "updated on",
                    "aktualisiert", "zuletzt aktualisiert", "bijgewerkt", "mis à jour", "publié le", "mis en ligne le", "date de mise en ligne", "publiée le", "dátum zverejnenia", "게시일", "등록일",
                    "掲載日", "ngày đăng", "ilan tarihi", "yayın tarihi"),
}
# Labels too general to trust alone: "Tyyppi" ("type") labels an employment type only when its value is one.
VOCABULARY_ONLY_LABELS = frozenset({"tyyppi"})
# Labels of an edit date: a posting date only where the page labels no publication date.
EDIT_DATE_LABELS = frozenset({"last edited", "last updated", "updated", "updated on", "aktualisiert",
                              "zuletzt aktualisiert", "bijgewerkt", "mis à jour"})
# Headings that name a section of a vacancy or of a site, never a vacancy's title (en, nl, de, fr).
SECTION_HEADINGS = frozenset((
    "job description", "description", "job details", "details", "overview", "job overview", "summary",
    "job summary", "requirements", "responsibilities", "qualifications", "about us", "about the company",
    "about the role", "about the job", "benefits", "apply", "apply now", "how to apply", "similar jobs",
    "related jobs", "more jobs", "share", "share this job", "contact", "contact us", "vacancies", "jobs", "careers",
    "job search", "search", "search jobs", "login", "log in", "sign in", "home", "menu", "navigation",
    "welcome", "job alerts", "vacancy", "job",
    "functieomschrijving", "omschrijving", "profiel", "aanbod", "wij bieden", "over ons", "vacatures",
    "solliciteren", "stellenbeschreibung", "aufgaben", "ihr profil", "profil", "wir bieten", "über uns",
    "stellenangebote", "bewerben", "description du poste", "profil recherché", "nous offrons", "à propos",
    "offres d'emploi", "postuler", "missions", "job offer", "job opening", "opening", "position", "job posting",
    "stellenangebot", "offre d'emploi", "emploi", "vacature", "job ad", "filter", "filters", "homepage", "team",
    "our team", "join our team", "join us", "work with us", "werken bij ons", "karriere", "carrière",
    "recruit", "recruiting", "recruitment", "entry",
    # Japanese, Korean and Chinese career sites: their page and section headings
    "募集要項", "募集要項詳細", "募集概要", "採用情報", "求人情報", "中途採用", "中途採用情報", "新卒採用", "新卒採用情報",
    "キャリア採用", "キャリア採用情報", "募集職種", "仕事内容", "応募資格", "応募方法", "選考フロー", "選考方法",
    "求める人物像", "会社概要", "エントリー", "채용정보", "채용공고", "모집요강", "상세요강", "招聘信息", "职位详情",
    "职位描述", "岗位职责", "任职要求", "招聘职位",
))
LABEL_INDEX = {label: field for field, labels in LABELS.items() for label in labels}

_UNITS = (("HOUR", r"hour|hr|uur|stunde|heure|hodin|時給|시급"), ("DAY", r"day|dag|tag|jour|日給|일급"),
          ("WEEK", r"week|woche|semaine|週給|주급"),
          ("MONTH", r"month|\bmo\b|maand|monat|mois|mesiac|月給|월급"),
          ("YEAR", r"year|yr|annum|annual|jaar|jahr|\ban\b|ročn|年収|연봉"))
_AMOUNT = re.compile(r"(?P<cur>[$€£¥₩]|EUR|USD|GBP|AUD|CHF|JPY|KRW)?\s?(?P<num>\d{1,3}(?:[.,\s]\d{3})+|\d+(?:[.,]\d+)?)"
                     r"\s?(?P<k>[kK])?\s?(?P<cur2>[$€£¥₩円원]|EUR|USD|GBP|AUD|CHF|JPY|KRW)?")
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "円": "JPY", "₩": "KRW", "원": "KRW"}
SALARY_HINT = re.compile(r"[$€£¥₩円원]|\b(EUR|USD|GBP|AUD|CHF)\b", re.I)
ISO_DATE = re.compile(r"\b(20\d\d)[-./](\d{1,2})[-./](\d{1,2})\b")
DMY_DATE = re.compile(r"\b(\d{1,2})[-./](\d{1,2})[-./](20\d\d)\b")


def normalise(text: str) -> str:
    """NFKC, whitespace collapsed, case folded: how labels and facts are compared."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def label_field(text: str) -> str | None:
    """The job field a label names ("Location:", "勤務地", "Miesto práce"), or None."""
    key = normalise(text).strip(" :：-–|•*").strip()
    if not 0 < len(key) <= 40:
        return None
    # Compound labels ("勤務地・交通", "Location / Travel") name their field first.
    return LABEL_INDEX.get(key) or LABEL_INDEX.get(re.split(r"\s*[・/&]\s*", key)[0])


_RANGE_DASH = re.compile(r"\s*(?:[-–—]|to|bis|à|tot)\s*[$€£¥₩]?\s*", re.I)


def parse_salary(text: str, *, currency_hint: str | None = None) -> Salary | None:
    """Amounts, currency and unit from a salary text such as "€4,000–€6,000/month" or "$120k - $150k a year"."""
    if not text or not re.search(r"\d", text):
        return None
    snippet = text[:300]
    # "2651.83 euros/month", "15 Euro pro Stunde": the currency as a word.
    snippet = re.sub(r"\beuros?\b", "EUR", snippet, flags=re.I)
    amounts, currency = [], None
    previous = None  # (match, value) of the amount before, for "$50-60k"
    first = None  # the first amount's match
    for match in _AMOUNT.finditer(snippet):
        symbol = match.group("cur") or match.group("cur2")
        price = Price.fromstring(match.group("num"))
        if price.amount is None:
            continue
        value = float(price.amount) * (1000 if match.group("k") else 1)
        if value < 1:
            continue
        if match.group("k") and previous and len(amounts) == 1 and not previous[0].group("k") \
                and previous[1] * 1000 <= value and _RANGE_DASH.fullmatch(snippet[previous[0].end():match.start()]):
            amounts[0] = previous[1] * 1000  # "$50-60k": the thousands sign stands once, after the range
        amounts.append(value)
        first = first or match
        previous = (match, value)
        currency = currency or (_CURRENCY.get(symbol, symbol.upper()) if symbol else None)
    if not amounts or not (currency or currency_hint):
        return None
    unit = next((name for name, pattern in _UNITS if re.search(pattern, snippet, re.I)), None)
    # "$650+", "ab 3.000 €": one amount open above is a minimum
    open_above = len(amounts) == 1 and (snippet[previous[0].end():].lstrip().startswith("+")
                                        or _FROM.search(snippet, 0, previous[0].start()) is not None)
    return Salary(min=min(amounts[:2]), max=None if open_above else max(amounts[:2]),
                  currency=currency or currency_hint, unit=unit, raw=_salary_words(snippet, first, previous[0]))


# Just before the amount: "from $50k", "ab 3.000 €", "à partir de 2 000 €", "vanaf € 3.000", "desde 1.200 €",
# "od 8000 zł"
_FROM = re.compile(r"\b(?:from|starting at|ab|à partir de|vanaf|desde|a partir de|od)\s*[$€£¥₩]?\s*$", re.I)
# A bracketed amount inside a longer line ("Korean Translator ($650+) - Acme Co., ltd"): the brackets are its text.
_BRACKETED = re.compile(r"\(([^()]{1,80})\)")


def _salary_words(snippet: str, first, last) -> str:
    """The salary as the text states it: the bracketed part holding every amount where a longer line has one."""
    text = " ".join(snippet.split())
    for match in _BRACKETED.finditer(snippet):
        if match.start() < first.start() and last.end() <= match.end() and SALARY_HINT.search(match.group(1)):
            inner = " ".join(match.group(1).split())
            return inner if len(inner) < len(text) else text
    return text


def parse_date(text: str) -> str | None:
    """An ISO date (YYYY-MM-DD) from "2026-03-23", "23.03.2026" or "23/03/2026"; None if there is none."""
    match = ISO_DATE.search(text or "")
    if match:
        year, month, day = (int(g) for g in match.groups())
    else:
        match = DMY_DATE.search(text or "")
        if not match:
            return None
        day, month, year = (int(g) for g in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"
