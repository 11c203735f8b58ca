"""RegionClassifier: decides remove | keep for learnable regions, on an OpenAI-compatible model or offline rules."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Literal
from urllib.parse import urlsplit

from lxml import etree
from lxml import html as lxml_html
from pydantic import BaseModel, ConfigDict, ValidationError

from gigflow.adapters.gazetteer import is_region_only, place_parts, place_score
from gigflow.noise.learn.directory import REASON as DIRECTORY_REASON
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.signal import (ADDRESS_ELEMENT_NOTE, COPYRIGHT_NOTE, LABEL_VALUE_KIND, LABEL_VALUE_NOTE,
                                 MAP_LINK_BESIDE_NOTE, MAP_LINK_NOTE, OPENINGS_NOTE, PLACE_LINE_NOTE,
                                 SITE_MAILBOX_NOTE, Signal, signals_reason)
from gigflow.noise.signature import MAP_LINK
from gigflow.noise.statements import COPYRIGHT_MARK
from gigflow.vacancy_status import CLOSED_NOTICE

Decision = Literal["remove", "keep"]


@dataclass(frozen=True)
class ReviewRegion:
    """One distinct learnable region as it is sent for review (identical regions across pages are one)."""

    id: str
    selector: str
    signature: str
    tag: str
    text: str
    links: tuple[tuple[str, str], ...]
    html: str
    label: str = ""
    # The text that can state this job's facts: the region's text without lists of links to other pages (menus,
    # cards of other jobs). None: all of ``text``.
    fact_text: str | None = None
    # Its form controls as a reader meets them ("button: Accept all", "input search: Search jobs").
    controls: tuple[str, ...] = ()
    # The region is (inside) the site's footer: a <footer>, role="contentinfo" or an element named a footer, the
    # same on the samples; told to the model (on a board its contact block is the operator's, see the prompt).
    site_footer: bool = False
    # The region is, holds or sits in an HTML <address> element (a postal address or contact block by markup).
    postal_address: bool = False
    # Link targets that jump within the page (its own URL with a fragment naming an element): no way to apply (CD).
    in_page_links: frozenset = frozenset()
    # Link targets that are the page itself or the site's other postings beside it (EA): the apply words of their
    # addresses are the site's URL scheme, no way to apply (their link texts are judged as before).
    posting_links: frozenset = frozenset()
    # The posting's title, where this region is the only place of its page that states it (GP): a job fact.
    page_title: str = ""
    # The heading of a posting's section this region sits under ("Candidate profile", "Financial support"), among
    # its earlier siblings: what it says is the job's, though no signal reads it.
    section_heading: str = ""
    # Its images' alt texts outside link lists (a logo's "Acme", not a card's "Acme hiring: Welder" in a list of
    # other jobs). None: every alt text in ``html``.
    image_alts: tuple[str, ...] | None = None
    # The machine-readable date of a <time datetime=…> element in it ("2022-12-06T11:24:04+07:00"): a date by
    # markup, however its words run together ("06/12/202206/12/2022": published and updated, side by side).
    time_stamp: str = ""
    # The words of a link to a map that is its only neighbour ("Main office · 1 Road, Town" beside "View map"): the
    # region is the place that link points to, however its words are written (JJ).
    beside_map_link: str = ""
    # The cards of the directory it is, or is one card of (places or people, each with a mailbox or phone of its
    # own, five or more): the site's directory, not this job's contact (0: none).
    directory_entries: int = 0

    def as_prompt(self) -> dict:
        prompt = {"id": self.id, "element": self.tag, "label": self.label or None, "selector": self.selector,
                  "text": self.text, "links": [{"text": t, "href": h} for t, h in self.links],
                  "controls": list(self.controls), "html": self.html}
        if self.site_footer:
            prompt["place"] = "site footer"
        if self.postal_address:
            prompt["address_markup"] = True
        if self.page_title:
            prompt["only_statement_of_job_title"] = self.page_title
        if self.directory_entries:
            prompt["directory_of_contacts"] = self.directory_entries
        return prompt


@dataclass(frozen=True)
class RegionVerdict:
    decision: Decision
    reason: str
    classifier: str
    signals: tuple[Signal, ...] = ()  # the rules' job-fact signals behind a keep
    # A removal for facts the rest of every sample restated (normalised): applied only where the page restates them
    restated: tuple[str, ...] = ()


class RegionDecision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    decision: Decision
    reason: str


class RegionDecisions(BaseModel):
    """The model's structured response: one decision per region id."""

    model_config = ConfigDict(extra="forbid")

    decisions: list[RegionDecision]


class BatchError(RuntimeError):
    """A batch got no usable answer: transport error, timeout, malformed JSON or invalid decisions."""


@dataclass
class ClassifierUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failed_batches: list[str] = field(default_factory=list)


def batches(regions: list[ReviewRegion], size: int) -> list[list[ReviewRegion]]:
    size = max(1, size)
    return [regions[i:i + size] for i in range(0, len(regions), size)]


def check_decisions(batch: list[ReviewRegion], decisions: RegionDecisions) -> dict[str, RegionDecision]:
    """Every region sent gets exactly one decision: a missing, duplicate or unknown id fails the batch."""
    sent = [r.id for r in batch]
    seen: dict[str, RegionDecision] = {}
    duplicate = sorted({d.id for d in decisions.decisions if [x.id for x in decisions.decisions].count(d.id) > 1})
    unknown = sorted({d.id for d in decisions.decisions} - set(sent))
    for d in decisions.decisions:
        seen.setdefault(d.id, d)
    missing = [i for i in sent if i not in seen]
    problems = []
    if missing:
        problems.append(f"missing ids {missing}")
    if duplicate:
        problems.append(f"duplicate ids {duplicate}")
    if unknown:
        problems.append(f"unknown ids {unknown}")
    if problems:
        raise BatchError("invalid decisions: " + "; ".join(problems))
    return seen


class RegionClassifier:
    """Reviews regions in bounded batches; subclasses decide one batch."""

    name = "classifier"
    # Whether a kept region's parts are reviewed again on their own: a rules verdict names the one signal it
    # saw; a model's "keep" judges the region in its context, which its parts alone would not show.
    splits_kept_regions = False

    def __init__(self, settings: NoiseSettings, employers: tuple[str, ...] = ()):
        self.settings = settings
        self.usage = ClassifierUsage()
        self.employers = tuple(employers)  # the source's company names: a job fact wherever they appear
        # The samples name different employers (a job board): regions they share describe the site operator, so
        # an address, phone, legal name or place there is board furniture, not a fact of any one job.
        self.site_operator_only = False
        # The site owner's name read from the samples (gigflow.noise.learn.owner), one of ``employers``.
        self.owner = ""
        # The site owner the samples agree on where they are no board (the employer), protected or not: the model
        # is told its name.
        self.site_owner_name = ""

    def review(self, regions: list[ReviewRegion]) -> dict[str, RegionVerdict]:
        verdicts: dict[str, RegionVerdict] = {}
        for batch in batches(regions, self.settings.batch_size):
            verdicts.update(self.review_batch(batch))
        return verdicts

    def review_batch(self, batch: list[ReviewRegion]) -> dict[str, RegionVerdict]:
        raise NotImplementedError


# --- offline rules ------------------------------------------------------------------------------------------
_MONTHS = (r"jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|"
           r"nov(ember)?|dec(ember)?|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|"
           r"avril|juin|juillet|août|septembre|octobre|novembre|décembre")
# A site's general mailboxes: not a vacancy's contact (a recruiter's or careers@ address is).
GENERAL_MAILBOXES = (r"(?:info|hello|privacy|press|media|webmaster|no-?reply|abuse|legal|inquiries|enquiries|"
                     r"contact|office)@")
# A shop's or service's customer desk ("kundeservice@", "customer-care@", "sales@"): whom customers write to, never
# how to reach the employer about a job, wherever it stands.
CUSTOMER_MAILBOXES = (r"(?:kundeservice|kundenservice|kundendienst|kundservice|kundtj[aä]nst|klantenservice|"
                      r"asiakaspalvelu|customer[-_.]?(?:service|care|support|success)|service[-_.]?clients?|"
                      r"support|servicedesk|helpdesk|sales|salg|vertrieb|billing|orders?|bestellung|booking|reservations?)@")
SITE_MAILBOXES = f"(?:{GENERAL_MAILBOXES}|{CUSTOMER_MAILBOXES})"
APPLY_CANDIDAT = r"candidat(?:ure|ures|ura|uras|er|ez|ar|arse|i)(?![^\W_])"
# A span of years a posting asks for: 1 to 15, not preceded by a digit (no "1970" or "2015").
_FEW_YEARS = r"(?<!\d)(?:1[0-5]|0?[1-9])(?!\d)"
JOB_FACT_SIGNALS: dict[str, re.Pattern] = {
    # (an amount's figures run at most 24 characters, "1 000 000,00": a run of digits costs linear time)
    "amount": re.compile(r"(?:[$€£¥₩₫₺]|\bRp\.?)\s?\d|\d[\d.,\s]{0,24}(€|eur|usd|chf|gbp|sek|nok|dkk|pln|czk|aud|\$|k\b|"
                         # Vietnamese, Turkish and Indonesian ("25 Triệu", "8tr", "15.000 TL", "5 juta")
                         r"triệu|tr\b|vnđ|vnd|đồng|tl\b|juta|ribu)|"
                         r"\b(salary|salaris|gehalt|lohn|salaire|wage|per (hour|year|month|annum)|/\s?(hr|hour|year|yr)|"
                         r"compensation|mức lương|maaş|gaji)\b", re.I),
    # a numeric date, not a run of a phone number's groups ("+32.81.65.77.42")
    "date": re.compile(r"(?<![+\d./-])\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b(?![./-]\d)|"
                       r"\b\d{1,2}\.?\s+(" + _MONTHS + r")\b|\b(" + _MONTHS + r")\.?\s+\d{1,2}\b|\b(" + _MONTHS + r")\.?,?\s+(?:19|20)\d\d\b|"
                       # a deadline by name: "Expiration date", "Expires", "Last date", "Valid until"
                       r"\b(deadline|closing date|apply by|expir(?:es|y|ation)(?: date)?|last date|"
                       r"valid (?:until|till))\b|"
                       r"\d{1,4}\s{0,3}(days?|hours?) ago|"
                       # no closing date: applications read as they come ("on a rolling basis", "sker löpande")
                       r"\b(?:rolling|ongoing|continuous) basis\b|\b(?:fort)?löpande\b|\bdoorlopend\b|"
                       r"\bau fil de l'eau\b|\b(?:bewerbungen|auswahl)\b[^.\n]{0,40}\blaufend\b|"
                       # "Posted: …", "Published on 3 May", "posted today"; not "Published with GitHub Pages"
                       r"\b(posted|published)\b(?=\s*:|\s+(?:on\s+|at\s+)?(?:\d|today|yesterday|" + _MONTHS + r"))",
                       re.I),
    # The work-mode and place words in any case ("Remote", "HYBRID", "Standort"); the patterns after them read
    # capitals as names.
    "location": re.compile(r"(?i:\b(remote|work(?:ing)? (?:100% |fully )?remotely|hybrid|on-?site|location|"
                           r"locations|(?<!mail )(?<!e-mail )address|headquarters|office in|"
                           r"standort|arbeitsort|lieu|locatie|werkplek|sijainti|địa chỉ|adres|alamat)\b)|📍|"
                           # an East Asian address: a postal mark and code ("〒037-0041"), a prefecture or province
                           # and its city or ward ("青森県五所川原市", "東京都新宿区", "广东省深圳市"), a Korean
                           # city and district ("서울특별시 강남구")
                           r"〒\s?\d{3}-?\d{4}|[\u4e00-\u9fff]{1,4}[都道府県省][\u4e00-\u9fff]{1,8}?[市区區町村郡县縣]|"
                           r"[가-힣]{1,6}(?:특별시|광역시|시|도)\s[가-힣]{1,6}[구군시]\b|"
                           # a place's office, campus or HQ ("Madison Office", "Leeds Campus"), a head office
                           r"\b(?!(?:Back|Front|Post|Box|Home|Press|Microsoft|Our|The|Your|Open|Virtual|Family)\b)"
                           r"[A-Z][\w.'-]{1,40}(?: [A-Z][\w.'-]{1,40})? (?:Office|Offices|Campus|HQ)\b|"
                           r"\b(?:[Hh]ead|[Mm]ain|[Rr]egistered|[Rr]egional) [Oo]ffices?\b|"
                          # a postcode and a place name, but not a copyright year and a company name
                          r"(?<![©\d])\b(?!(19|20)\d\d\b)\d{4,5}\s+[A-Z][a-z]+|"
                          # a postcode and a place set off by a comma ("10115, Berlin", "10115, BER"), a
                          # hyphenated postcode ("00-950 Warszawa", "31-000, Kraków"): the place starts with a capital
                          r"(?<![©\d.])\b(?!(19|20)\d\d\b)\d{4,5},\s?(?=[^\W\d_])(?![a-zß-ÿ])\w{2,}|"
                          r"(?<![\d./-])\b\d{2}-\d{3},?\s?(?=[^\W\d_])(?![a-zß-ÿ])\w{2,}|"
                          # a place and its country after "in", "based in", "located in" ("in Porto, Portugal")
                          r"\b(?:[Ii]n|[Bb]ased in|[Ll]ocated in|[Oo]ffices? in)\s+[A-Z][\w'-]+(?:\s[A-Z][\w'-]+)?,\s"
                          r"(?!(?:and|or|the|etc)\b)[A-Z][a-z]+\b(?!,|\s(?:and|or)\s)"),
    # Contact details, not a generic "Contact us" page link: e-mail addresses, phone numbers, named recruiters.
    # Site mailboxes (info@, privacy@, ...) are not a vacancy's contact.
    "contact": re.compile(r"(?<![\w.+-])(?!" + SITE_MAILBOXES + r")"
                          r"[\w.+-]+@[\w-]+\.[\w.]+|"
                          # a mailbox written against harvesters ("jane.doe(at)acme.example", "jobs [at] acme.example")
                          # (a local part at most 64 characters, as mail allows: a long run of letters costs linear time)
                          r"(?<![\w.+-])[\w.+-]{1,64}\s?[(\[]at[)\]]\s?[\w-]{1,63}\.[\w.]{1,63}|"
                          # a phone number, but not a copyright's span of years ("© 2013-2015")
                          r"(?<!\d)(?!(?:19|20)\d\d\s?[-–]\s?(?:19|20)\d\d\b)\+?\d[\d\s()-]{7,}\d|"
                          r"\b(recruiter|hiring manager|hr manager)\b",
                          re.I),
    # "candidat..." as applying (candidature, candidater, candidatura, candidatar-se, "Candidati"), not the
    # person: a menu's "Candidatos" or /candidates/ section is for job seekers, no way to apply.
    "apply": re.compile(r"\b(apply|application|bewerb\w*|solliciteer\w*|postul\w*|" + APPLY_CANDIDAT + r"|hae|haku|"
                        r"aplikuj\w*|aplicar|aplica (?:ahora|ya|aqu[ií])|ansök\w*|ansøg\w*|"
                        r"откликнуться|отправить резюме|odpovědět na|"
                        r"응모|지원|"
                        # Vietnamese, Turkish, Indonesian/Malay ("Ứng tuyển ngay", "Hemen başvur", "Kirim lamaran")
                        r"ứng tuyển|nộp hồ sơ|başvur\w*|lamaran|lamar sekarang|mohon sekarang)|"
                        # scripts written without spaces between words: no word boundary to look for
                        r"応募|エントリー|आवेदन|申请职位|立即申请|投递简历|สมัครงาน|สมัครเลย", re.I),
    # Documents to send with an application (an application form's fact, like its deadline).
    "documents": re.compile(r"\b(CV|curriculum vitae|r[ée]sum[ée]|cover letter|motivation letter|portfolio|"
                            r"lebenslauf|anschreiben|zeugnisse|motivatiebrief|lettre de motivation)\b", re.I),
    # A notice that the vacancy is closed: the job's state, which a reader (and the upkeep) must still see, even
    # where every sample of the site is a closed posting and the notice is the same on each.
    "status": CLOSED_NOTICE,
    "benefit": re.compile(r"\b(benefits?|bonus|pension|vacation|holidays?|paid leave|insurance|"
                          r"stock options?|equity|allowance|perks?|401k|health insurance|healthcare (plan|package)|"
                          r"medical|dental|"
                          # a section on why to join ("Why should you join Acme", "Why work with us"): what the
                          # employer offers
                          r"why (?:should you |you should |to )?join|why work (?:with|for|at)|"
                          r"why (?:you(?:'|’)ll |you will |you(?:'|’)d )?(?:love|like|enjoy) (?:working|to work)|"
                          r"warum (?:du |sie )?(?:zu )?uns|pourquoi (?:nous )?rejoindre|waarom (?:werken bij|"
                          r"kiezen voor)|varför (?:jobba|arbeta) (?:hos|på))\b", re.I),
    "requirement": re.compile(r"\b(requirements?|qualifications?|years of experience|experience (in|with)|degree|"
                              r"responsibilit(y|ies)|must have|you have|you bring|required skills|"
                              # "2 - 3 Years Experience", "5+ years' relevant experience", "3 Jahre Berufserfahrung":
                              # a few years (up to 15); a firm's "70 Jahre Erfahrung" is its history, no requirement
                              rf"{_FEW_YEARS}\s?(?:[-–+]|to)?\s?(?:{_FEW_YEARS}\s?)?(?:years?|yrs?)['’]?\s(?:of\s)?"
                              rf"(?:[a-z]+\s)?experience|{_FEW_YEARS}\s?(?:[-–+]\s?{_FEW_YEARS}\s?)?"
                              r"(?:Jahre?n?|ans|años|anni|jaar)\s(?:[\w']+\s)?"
                              r"(?:Berufserfahrung|Erfahrung|d['’]exp[ée]rience|de experiencia|di esperienza|"
                              r"(?:werk)?ervaring))\b", re.I),
}
# Employer and legal-entity names: a company's legal form after its name (a footer's "Acme Robotics B.V." names
# the employer). Short all-caps forms (AG, SE, AB, AS, SA, ...) only in capitals and right after a word that is
# not itself in capitals: in an all-caps disclaimer "AND AS SUCH" names no company.
JOB_FACT_SIGNALS["employer"] = re.compile(
    # a board's box naming the posting's company, by its link to the company's page or other postings
    r"(?i:\b(?:company|employer) profile\b|\bview (?:company|employer)\b|\b(?:more|all|other) jobs (?:from|by|at)\b|"
    r"\b(?:unternehmens|firmen|arbeitgeber)profil\b|\bprofil (?:de l'|d')?(?:entreprise|employeur)\b|"
    r"\btoutes les offres de\b|\bbedrijfsprofiel\b|\bperfil de (?:la )?empresa\b)|"
    r"\b(GmbH|mbH|gGmbH|UG|KGaA|e\.\s?V\.|B\.\s?V\.?|N\.\s?V\.?|BVBA|VZW|Ltd\.?|Limited|LLC|L\.L\.C\.|LLP|L\.P\.|"
    r"Inc\.?|"
    r"Incorporated|Corp\.?|Corporation|PLC|plc|Pty|S\.A\.S?\.?|SARL|S\.à\s?r\.l\.|S\.r\.l\.|SRL|S\.p\.A\.|SpA|"
    r"Oyj?|ApS|A/S|ASA|Sp\.\s?z\s?o\.\s?o\.|s\.\s?r\.\s?o\.|a\.\s?s\.|Kft\.?|K\.K\.|Co\.,?\s?Ltd|"
    # Vietnamese, Indonesian and Turkish forms ("Công ty TNHH …", "PT. … Tbk", "… A.Ş.")
    r"TNHH|Cổ phần|Tbk|A\.Ş\.|PT\.(?=\s+[A-Z][a-z]))(?=\W|$)|"
    r"(?<=[a-z\d&.),]\s)(AG|SE|AB|AS|SA|KG|OHG|NV|BV|Oy|LP|LTD|INC|CORP|GMBH)\b|株式会社|有限会社|合同会社|주식회사|\(주\)|㈜|有限公司")


def names_legal_entity(text: str) -> bool:
    """``text`` gives a company's legal form ("Acme Robotics B.V.", "Rosoco BV", "アクメ株式会社"): a legal name,
    not a board's "company profile" link."""
    return any(m.group(1) or m.group(2) or not m.group(0).isascii() for m in JOB_FACT_SIGNALS["employer"].finditer(text))


# Employment type and schedule, in the corpus's languages (en, de, nl, fr, fi, sv, sk, ko, ja, es, it).
JOB_FACT_SIGNALS["employment"] = re.compile(
    r"\b(full[- ]?time|part[- ]?time|permanent|temporary|fixed[- ]term|contract(or)?|freelance|internship|"
    r"apprenticeship|traineeship|working hours|hours (per|a|/) ?week|shifts?|schedule|employment type|job type|"
    r"vollzeit|teilzeit|festanstellung|unbefristet|befristet|praktikum|werkstudent\w*|anstellungsart|pensum|"
    r"arbeitszeit\w*|voltijd|deeltijd|vast contract|tijdelijk|dienstverband|uur per week|werktijden|"
    r"temps (plein|partiel)|CDI|CDD|int[ée]rim|alternance|horaires?|type de contrat|"
    r"kokoaikai\w*|osa-aikai\w*|vakituinen|määräaikai\w*|työaika|vuorotyö|työsuhde|"
    r"heltid|deltid|tillsvidare\w*|visstid\w*|anställningsform|omfattning|"
    r"plný úväzok|skrátený úväzok|pracovný pomer|úväzok|"
    r"jornada completa|tiempo completo|media jornada|tempo pieno|part time|"
    # Vietnamese, Turkish, Indonesian and Malay, Polish ("Toàn thời gian", "Tam zamanlı", "Penuh waktu")
    r"toàn thời gian|bán thời gian|loại hình công việc|thời gian làm việc|tam zamanl[ıi]|yar[ıi] zamanl[ıi]|"
    r"çal[ıi]şma şekli|penuh waktu|paruh waktu|sepenuh masa|separuh masa|pełny etat|"
    r"umowa o pracę|wymiar pracy|FTE|full[- ]time equivalent|beschäftigungsgrad|taux d'(?:activité|occupation))\b|"
    # a share of full time ("This job is 100% time.", "50% FTE", "80-100 % Stelle")
    r"\b\d{1,3}\s?%\s?(?:time|FTE|appointment|stelle|anstellung|pensum|temps)\b|"
    # a range of weekly hours ("24 tot 38 uur", "20-30 hours", "32–40 Stunden"); one figure alone ("within 24 hours")
    # may be anything, and a range from before ten is a day's opening hours ("9-17 uur")
    r"\b(?:1\d|[2-4]\d)(?:[.,]5)?\s*(?:-|–|tot|to|bis|à|a|till|do)\s*(?:1\d|[2-4]\d)(?:[.,]5)?\s*"
    r"(?:uur|hours|hrs|stunden|std|heures|ore|horas|timer|tuntia|godzin)\b|"
    r"정규직|계약직|비정규직|인턴|근무형태|고용형태|근무시간|주5일|正社員|契約社員|派遣社員|アルバイト|パート|雇用形態|勤務時間",
    re.I)
# Postal addresses: a street word with a number, or a postcode in a common national form.
JOB_FACT_SIGNALS["address"] = re.compile(
    # a house number, also a lot and a unit ("245E/11", "12-14"), and a street of up to three names
    # (a name's word at most 40 letters: a hostile run of letters costs linear time)
    r"\b\d{1,5}\w?(?:[/-]\d{1,5}\w?)?\s+[A-Z][\w.'-]{0,40}(\s[A-Z][\w.'-]{0,40}){0,2}\s"
    r"(?i:street|st\.|road|rd\.|avenue|ave\.?|boulevard|blvd\.?|lane|drive|way|square|place)(?!\w)|"
    r"\b[A-ZÄÖÜ][\wäöüß.-]{0,40}(stra(ss|ß)e|str\.|weg|gasse|platz|allee|laan|straat|plein|gracht|kade|katu|tie|gatan|"
    r"vägen|ulica)\s+\d{1,4}\w?\b|\b(rue|avenue|boulevard|chemin|place|via|calle)\s+[\w' -]{2,40}\d|"
    r"\b\d{1,4},?\s(rue|avenue|boulevard|chemin)\b|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|"
    r"\b\d{4}\s?[A-Z]{2}\s+[A-Z][a-z]+|"
    # a street and number before a Dutch postcode, the town on a line of its own ("Aanwas 35, 4704 SC")
    r"\b[A-Z][\w.'-]{1,40}\s\d{1,4}\w?,\s*\d{4}\s?[A-Z]{2}\b|"
    # a Czech or Slovak street with its house numbers and postcode ("Purkynova 2121/3, 110 00, Prague")
    r"\b[A-ZÀ-Ž][^\W\d_]{1,40}\s\d{1,5}/\d{1,4}\w?,\s*\d{3}\s?\d{2}\b|"
    r"\b(P\.?\s?O\.? Box|Postfach|Postbus|Case postale)\b|"
    # an Indonesian or Malay street with its number ("Jl. Kelapa Lilin Utara XIV Blok DG 8 No. 27")
    r"\b(?:Jl|Jln|Jalan)\.?\s[A-Z][\w.' -]{1,60}?\bNo\.?\s?\d{1,4}|"
    # an Indian PIN code after its town ("Kol-700091", "Chennai - 600 042") or its label ("PIN: 560001")
    r"\b[A-Z][a-z]{1,20}\s?[-–]\s?[1-9]\d{2}\s?\d{3}\b|\bPIN(?:\s?code)?[:\s]\s*[1-9]\d{5}\b|"
    r"\b[A-Z]{2}\s\d{5}(-\d{4})?\b")
# Label/value rows: "Employment type: Full-time", "Standort: Zürich". A label starts its line (or follows a
# separator): "... the full set of features including:" ends a sentence, it labels nothing.
JOB_FACT_SIGNALS["label"] = re.compile(r"(^|(?<=[\n|•·]))[^\S\n]*[^\W\d_][^\s:：|•·]{1,24}(\s[^\s:：|•·]{1,24}){0,2}[:：]\s*[\w€$£(+]",
                                       re.I)
_LABEL_VALUE_MARKUP = re.compile(r"<(dt|dd|th)\b", re.I)


def _values_state_text(markup: str) -> bool:
    """Whether a dd or td of the region holds words of its own, beyond links: a footer's link menu laid out as
    ``<dt>Docs</dt><dd><a>Overview</a></dd>`` pairs labels with links, not with values."""
    try:
        fragment = lxml_html.fragment_fromstring(markup, create_parent="div")
    except (etree.ParserError, ValueError):
        return True  # unreadable: judged as before
    labels = [label for label in fragment.iter("dt", "th") if label.text_content().strip()]
    if labels and all(_squash(label.text_content()) == _squash(" ".join(a.text_content() for a in label.iter("a")))
                      for label in labels):
        return False  # every label is a link: a menu's entries with their descriptions ("Get Help: Read our FAQ")
    for value in fragment.iter("dd", "td"):
        # Counted without whitespace: the line breaks between a menu's items are no words of its own.
        linked = sum(len(_squash(a.text_content())) for a in value.iter("a"))
        if len(_squash(value.text_content())) > linked:
            return True
    return False


_ALT = re.compile(r"""<img\b[^>]*?\balt=["']([^"'<>]{1,200})["']""", re.I)
# A mailto without an address ("mailto:?subject=…&body=<this page>") is a share button, nobody to write to.
# A chat with a person or a company by a messenger's web address ("m.me/acme", "wa.me/4912345"), as a tel: link
# is a call: whom to write to. Not one with a message written in (a share button's "Check out this job: <url>", a
# sales line's "I want to know more about your services"), and not Telegram's t.me (as often a news channel).
MESSENGER_LINK = (r"^(?:https?:)?//(?:www\.)?(?:m\.me|wa\.me|(?:api\.)?whatsapp\.com/send)"
                  r"(?![^#]*[?&](?:text|url)=)(?:/|\?|$)")
_MESSENGER = re.compile(MESSENGER_LINK, re.I)
_LINK_SIGNALS = re.compile(r"^tel:|" + MESSENGER_LINK + r"|^mailto:(?![?&]|\s*$|" + SITE_MAILBOXES + r")|"
                           # not a competition's or a competitor's address ("fotowettbewerb", "mitbewerber")
                           r"apply|application|(?<!wett)(?<!mit)bewerb|" + APPLY_CANDIDAT + r"|postul", re.I)
RULES_NAME = "rules"
# Links to a site's legal texts: a privacy notice for candidates or a data-subject request form names applicants
# and applications without being a way to apply.
_LEGAL = re.compile(r"privacy|policy|policies|\bterms\b|legal|gdpr|data[-_ ]?subject|\bnotice\b|cookie|imprint|"
                    r"impressum|datenschutz|disclaimer|kvkk", re.I)


# "Apply machine learning to your cloud" in a product menu: the verb with an object of its own, not a way to apply
# ("Apply", "Apply now", "Apply for this job", "Apply online", "Apply to Acme" are).
_APPLY_VERB_ON_A_THING = re.compile(
    r"apply\s+(?!(?:now|here|today|online|for|to|via|with|on|at|in|through|as|by|directly|immediately|"
    r"yourself|this|the|our|your|me|it)\b)[a-z]", re.I)


# "Applications" as software, and pages about applying, are no way to apply: a services menu's "Web Applications
# Development", "Application Security", its link to /decentralized-applications-development, a careers menu's
# "Bewerbungstipps" (a way to apply is "Application form", "Submit your application", "Open applications").
_APPLICATION_AS_A_THING = re.compile(
    # pages about applying, not a way to apply: "Bewerbungstipps", "application tips", "Bewerbungsratgeber"
    r"(?:bewerbungs?|applications?|candidatures?|sollicitatie)[\s_-]?(?:tipps?|tips|tricks|ratgeber|guide|advice|"
    r"faq|hilfe|help|coaching|training)\b|"
    r"applications?[\s_/-]+(?:\([^()]{1,20}\)\s+)?(?:development|developers?|security|servers?|performance|"
    r"monitoring|programming|testing|architecture|integration|platforms?|engineering|modernization|"
    r"modernisation|hosting)\b", re.I)


MENU_LINKS = 8  # a region with this many links reads as a site menu
# Words that go with a way to apply without naming anything else ("Apply now", "Online-Bewerbung",
# "Bewerbungsformular").
_APPLY_FILLER = re.compile(r"\b(?:now|here|today|online|jetzt|hier|direkt|sofort|maintenant|nu|ora|ahora|agora|"
                           r"form|formular|formulaire|formulier|to|for|this|the|our|job|jobs|position|role|stelle|"
                           r"vacature|poste|via|per|e-?mail|mail)\b|[^\w]+", re.I)


def _bare_apply(link_text: str) -> bool:
    """Whether a link's words are a way to apply and nothing else ("Apply", "Jetzt bewerben")."""
    rest = link_text[:120]
    matches = list(JOB_FACT_SIGNALS["apply"].finditer(rest))
    for m in matches:
        end = m.end()
        while end < len(rest) and rest[end].isalnum():
            end += 1  # the rest of the word: "Bewerbungsformular", "Applications"
        rest = rest[:m.start()] + " " * (end - m.start()) + rest[end:]
    return bool(matches) and not _APPLY_FILLER.sub("", rest).strip()


# The label of a company register or tax number just before a number (the end of the 24 characters before it).
REGISTRATION_LABEL = re.compile(
    r"\b(?:cvr|se|vat|moms|ust-?id(?:nr)?|mwst|uid|kvk|btw|siret|siren|tva|rcs|org(?:anisasjons)?\.?\s?(?:nr|nummer)|"
    r"y-tunnus|ičo|ico|dič|nip|regon|krs|abn|acn|ein|company (?:no|number|reg)|registration (?:no|number)|"
    r"reg\.?\s?(?:no|nr)|handelsregister|hrb|hra|kbo|p\.?\s?iva|partita iva|cif|nif)\b[\w.\s:#-]{0,12}$", re.I)


def _legal_link(text: str, href: str) -> bool:
    return bool(_LEGAL.search(text or "") or _LEGAL.search(href or ""))


MENU_MIN_LINKS = 4


def _squash(text: str) -> str:
    return "".join(text.split())

EMPLOYMENT_LINE_MAX_WORDS = 10
SALARY_TERMS_MAX_WORDS = 30
# The pay and how it is set, in one sentence: "salary ... decided / negotiable / depending on / based on ..."
_SALARY_TERMS = re.compile(r"\b(?:salary|salaries|pay|compensation|remuneration|wages?)\s+(?:[\w'-]{1,20}\s+){0,3}?"
                           r"(?:decided|determined|negotiable|negotiated|depend(?:s|ing)?|based on|commensurate|"
                           r"according to|competitive|discussed)\b", re.I)


def is_link_menu(region: ReviewRegion) -> bool:
    """Four or more links that make up most of the region's text."""
    linked = sum(len(t) for t, _ in region.links)
    return len(region.links) >= MENU_MIN_LINKS and linked >= 0.7 * len(region.text)


# On a multi-employer board a region every sample shares cannot state one job's facts: its address, phone and
# legal name are the operator's, its dates and amounts the site's ("updated April 12", "salary data"). Only a
# way to apply can be the same for every job there.
BOARD_KINDS = frozenset({"apply"})


_SITE_MAILBOX = re.compile(r"\b" + GENERAL_MAILBOXES + r"(?P<domain>[\w-]+(?:\.[\w-]+)+)", re.I)


LEGAL_FORM_AT_END = re.compile(r"[\s,]+(?:ltd\.?|limited|gmbh(?: & co\.? kg)?|inc\.?|llc|llp|plc|corp\.?|b\.?v\.?|"
                               r"n\.?v\.?|ag|kg|sa|sas|sarl|srl|s\.r\.l\.|spa|oy|oyj|ab|as|a/s|aps|kft\.?|pty(?: ltd)?|"
                               r"co\.?,? ltd\.?|pvt\.? ltd\.?|private limited)$", re.I)


SECTION_HEADING_MAX_WORDS = 6


# Headings of a posting's sections that no fact signal reads: what the employer offers ("What we offer", "Why
# you'll love working here") and who the employer is ("Company overview", "About us"): employer text, a job fact.
_OFFER_HEADING = re.compile(
    r"\b(?:what (?:we|you(?:'|’)ll|you will) (?:offer|get)|we offer|our offer|what(?:'|’)s in it for you|"
    r"(?:was |das )?(?:wir bieten|bieten wir)|unser angebot|(?:ce que )?nous (?:offrons|proposons)|notre offre|"
    r"(?:wat )?wij bieden|ons aanbod|(?:qué )?ofrecemos|oferecemos|(?:cosa )?offriamo|vi tilbyr|vi erbjuder|"
    r"(?:unsere |ihre |deine )?(?:mehrwerte|vorteile))\b",
    re.I)
_SECTION_HEADING = re.compile(
    _OFFER_HEADING.pattern + r"|\b(?:company overview|about (?:us|the company|the employer|the team)|who we are|"
    r"über uns|qui sommes[- ]nous|over ons|sobre nosotros|quiénes somos|chi siamo|om oss|"
    # who the job wants, and what it pays
    r"candidate(?:'s)? profile|(?:your|the|job) profile|(?:the )?ideal candidate|who you are|about you|"
    r"what you(?:'ll| will)? bring|what we(?:'re| are) looking for|(?:ihr|dein) profil|(?:votre )?profil recherché|"
    r"(?:uw|jouw) profiel|(?:tu )?perfil|(?:il tuo )?profilo|financial support|funding|compensation|"
    r"remuneration|salary|vergütung|gehalt|rémunération|salaire|salaris|salario)\b", re.I)


def _written_value(kind: str, link_text: str) -> bool:
    """A link's words are a mailbox or a phone number ("jane.doe(at)acme.example"), or a day's date ("06/12/2022",
    "6 May 2024"; not a month's archive, "December 2022"), and nothing else."""
    text = link_text.strip()
    if kind == "contact":
        return bool(_CONTACT_MARK.search(text)) and bool(JOB_FACT_SIGNALS["contact"].fullmatch(text))
    pattern = JOB_FACT_SIGNALS["date"]
    return bool(pattern.search(text)) and len(_DIGIT_GROUP.findall(text)) >= 2 and not _DATE_REST.sub(
        "", pattern.sub("", text))


_CONTACT_MARK = re.compile(r"[@\d]|[(\[]at[)\]]", re.I)
_DIGIT_GROUP = re.compile(r"\d+")
_DATE_REST = re.compile(r"[\d\W_]+")


def names_job_section(text: str) -> bool:
    """A heading that names a posting's section ("Benefits!", "Requirements", "Why should you join Acme", "What
    we offer", "Company overview"): what the section says is the job's, though no signal reads it."""
    return len(text.split()) <= SECTION_HEADING_MAX_WORDS and (
        any(JOB_FACT_SIGNALS[kind].search(text) for kind in ("benefit", "requirement"))
        or bool(_SECTION_HEADING.search(text)))


FIRST_WORD_DOMAIN_MIN = 4
INITIALS_DOMAIN_MIN = 3


def owners_mailbox(text: str, names: tuple[str, ...]) -> str:
    """A general mailbox (info@, office@ ...) at the domain of one of ``names`` (the site's one employer): on a
    one-employer site the footer's mailbox is how to reach the employer, a contact fact; '' when there is none."""
    # A name with its legal form ("MadeByShape Ltd", a copyright line's) has a domain without it.
    keys = {"".join(ch for ch in form.casefold() if ch.isalnum()) for name in names if name
            for form in (name, LEGAL_FORM_AT_END.sub("", name))}
    keys = {key for key in keys if len(key) >= 3}
    # A company often has its domain from the first word of its name alone ("Holler Technologies" at holler.io).
    first_words = {"".join(ch for ch in name.split()[0].casefold() if ch.isalnum()) for name in names
                   if name and len(name.split()) > 1}
    first_words = {word for word in first_words if len(word) >= FIRST_WORD_DOMAIN_MIN}
    # ... or from its initials ("Optimal Solutions Inc" at osigov.com), with or without the legal form's
    initials = {"".join(word[0] for word in form.casefold().split() if word[0].isalnum())
                for name in names if name for form in (name, LEGAL_FORM_AT_END.sub("", name))}
    initials = {letters for letters in initials if len(letters) >= INITIALS_DOMAIN_MIN}
    if not keys:
        return ""
    for match in _SITE_MAILBOX.finditer(text):
        domain = match.group("domain").casefold()
        # the name without the top-level domain ("acme" of acme.com), or with it where the TLD spells the name's
        # last word ("4Biz Properties" at 4biz.properties)
        name, tld = ("".join(ch for ch in part if ch.isalnum()) for part in (domain.rsplit(".", 1)[0],
                                                                             domain.rsplit(".", 1)[-1]))
        if any(key in name or (key in name + tld and key not in tld) for key in keys) or name in first_words or any(
                name.startswith(letters) for letters in initials):
            return match.group(0)
    return ""


def _without_form_labels(region: ReviewRegion, haystack: str) -> str:
    """``haystack`` less the texts of the region's form field labels (``<label>`` in a ``<form>``, or anywhere
    beside the inputs of a form a script sends)."""
    if "<label" not in region.html or not _FORM_MARKUP.search(region.html):
        return haystack
    try:
        fragment = lxml_html.fragment_fromstring(region.html, create_parent="div")
    except (etree.ParserError, ValueError):
        return haystack
    for label in fragment.xpath("//label"):
        text = " ".join(label.text_content().split())
        if text:
            haystack = haystack.replace(text, " ")
    return haystack


_FORM_MARKUP = re.compile(r"<(?:form|input|select|textarea)\b", re.I)


def _home_page(href: str) -> bool:
    """A link to the site's home page: its path is the root or the root's index file."""
    path = urlsplit(href or "").path
    return _HOME_PATH.fullmatch(path) is not None


PLACE_LINE_MAX_WORDS = 6
PLACE_MAX_COMMAS = 200  # commas looked at in one region's text (bounded on any page)


def _town_and_country_in(text: str) -> str:
    """The first "Town, Country" in ``text`` (up to three words either side of a comma), else ''."""
    words = text.split()
    commas = [i for i, word in enumerate(words) if word.endswith(",") and len(word) > 1][:PLACE_MAX_COMMAS]
    for i in commas:
        for before in range(1, 4):
            for after in range(1, 4):
                if i - before + 1 < 0 or i + after >= len(words):
                    continue
                candidate = " ".join(words[i - before + 1:i + 1 + after]).strip(" .;:")
                if _town_and_country(candidate):
                    return candidate
    return ""


_TOWN_SEPARATORS = re.compile(r"\s*[–—|·•/]\s*|\s+-\s+")
TOWNS_LINE_MAX_CHARS = 80
TOWNS_LINES_READ = 200


def _towns_line_in(text: str) -> str:
    """The first line of ``text`` that lists an employer's towns, nothing else ("Grenoble – Lyon – Paris",
    "Berlin | Hamburg"): two to six known towns between separators, each written with a capital."""
    for line in text.split("\n")[:TOWNS_LINES_READ]:
        line = " ".join(line.split())
        if not line or len(line) > TOWNS_LINE_MAX_CHARS:
            continue
        parts = [part for part in _TOWN_SEPARATORS.split(line) if part]
        if 2 <= len(parts) <= 6 and all(len(part.split()) <= 3 and part[:1].isupper() and place_score(part) == 1.0
                                        for part in parts):
            return line
    return ""


def _town_and_country(line: str) -> bool:
    """A short line that is a known town and its country or state, nothing else ("Kathmandu, Nepal", "Austin, TX")."""
    line = " ".join(line.split())
    words = line.replace(",", " ").split()
    # place names are written with capitals ("Kathmandu, Nepal", "Austin, TX"), a code in capitals only: "you, and"
    # is no town in Andorra
    if not words or len(words) > PLACE_LINE_MAX_WORDS or not all(word[:1].isupper() for word in words) \
            or (len(words[-1]) <= 3 and not words[-1].isupper()):
        return False
    parts = place_parts(line)
    return 2 <= len(parts) <= 3 and not is_region_only(parts[0]) and is_region_only(parts[-1]) \
        and place_score(line) == 1.0


_HOME_PATH = re.compile(r"/?(?:index\.(?:html?|php))?")


def _introduces_links(text: str, value_start: int, links: set[str]) -> bool:
    """Whether the label ending before ``value_start`` introduces a run of links, not a value: a trail ("You are
    here: Home / Jobs / …"), share or follow buttons ("Share: Facebook LinkedIn"), a language switch. Its value
    and the line after it are both link texts (``links``, whitespace collapsed); a fact's value ("Location:
    <a>Berlin</a>") is one link at most."""
    lines = [" ".join(line.split()) for line in text[value_start:value_start + 400].split("\n")]
    lines = [line for line in lines if line][:2]
    return len(lines) == 2 and all(line in links for line in lines)


def job_fact_signals(region: ReviewRegion, employers: tuple[str, ...] = (), site_operator_only: bool = False,
                     owner: str = "", owner_name: str = "") -> list[Signal]:
    """Which job-fact signals a region shows: in its text, its link texts or its link targets, its label/value
    markup, and the names of the source's company (``employers``). ``site_operator_only``: the region is shared
    by samples of different employers, so only a way to apply counts (see BOARD_KINDS): a board's footer office
    block is the operator's, one employer's is the employer's (issue #23). ``owner_name``: the site owner the
    samples agree on (no board); its general mailbox in the site footer is the employer's contact."""
    # The posting's title, nowhere else on its page (GP): a job fact on any site, a board's too.
    found = [Signal("title", region.page_title)] if region.page_title else []
    # A site menu: only its bare ways to apply count (``_bare_apply``), read once per link text.
    bare = {t for t, _ in region.links if _bare_apply(t)} if len(region.links) >= MENU_LINKS else None
    text = region.text if region.fact_text is None else region.fact_text
    # Link texts are compared without whitespace: a link's text runs across the block lines of ``text``.
    squashed = _squash(text)
    link_texts = [t for t, _ in region.links if _squash(t) and _squash(t) in squashed]
    if is_link_menu(region):
        # A menu of links ("Part-time jobs", "Jobs in Helsinki") names categories, not this job's facts; its
        # links' targets are still checked below (apply, mailto, tel).
        for link_text in link_texts:  # what is left is the menu's own words, glued (enough for the patterns)
            squashed = squashed.replace(_squash(link_text), "\n", 1)
        text, link_texts = squashed, []
    haystack = "\n".join([text] + link_texts + [region.label])
    form_free: list[str] = []  # the haystack less the form's field labels, read once where a kind asks for it

    def without_form_labels() -> str:
        if not form_free:
            form_free.append(_without_form_labels(region, haystack))
        return form_free[0]

    # Words that are only link texts are navigation ("Recruiter area", "Part-time jobs"): only an apply link
    # counts there (its target may say nothing).
    only_links = bool(link_texts) and sum(len(_squash(t)) for t in link_texts) >= len(squashed)
    for kind, pattern in JOB_FACT_SIGNALS.items():
        if only_links and kind not in ("apply", "employer") and not (kind in ("contact", "date") and any(
                _written_value(kind, t) for t in link_texts)):
            # A linked legal name ("Acme Ltd") is the employer; a link whose words are a mailbox or a phone
            # (behind a script that decodes the address) is that contact, and one whose words are a day's date
            # (a blog's "Posted on <a rel=bookmark>06/12/2022</a>") is that date.
            continue
        if site_operator_only and kind not in BOARD_KINDS:
            continue
        if kind == "label" and region.site_footer:
            # The site footer's "Opening hours: Mon-Fri", "Fax: …" describe the office; its facts (address,
            # phone, mail, legal name) have signals of their own.
            continue
        if kind == "documents":
            # "Send us your resume" is a call for open applications; documents to send with this application are
            # a list ("CV, cover letter and references"). A form's field labels ("Upload CV/Resume *", "Cover
            # Letter *") name its inputs, not what this job asks for.
            named = {m.group(0).lower() for m in pattern.finditer(without_form_labels())}
            if len(named) >= 2:
                found.append(Signal(kind, ', '.join(sorted(named))))
            continue
        if kind == "apply":
            # A way to apply is a link ("Apply now", a mail to the recruiter); apply words in text are a form's
            # heading or its confirmation ("Thank you for your application"), not a fact of the job. A link to a
            # legal text ("Data Subject Application", "Candidate Privacy Notice") is no way to apply.
            # Among a site menu's many links, only a bare way to apply ("Apply", "Jetzt bewerben", "Online-
            # Bewerbung") is one: "Wohnheim-Bewerbung" (a dorm's), "Bewerbung & Auswahlverfahren" (admissions) name
            # another section of the site.
            texts = [t for t, h in region.links if not _legal_link(t, h) and h not in region.in_page_links
                     and (bare is None or t in bare)]
            match = next((m for m in pattern.finditer("\n".join(texts))
                          if not _APPLY_VERB_ON_A_THING.match(m.string, m.start())
                          and not _APPLICATION_AS_A_THING.match(m.string, m.start())), None)
            if match:
                found.append(Signal(kind, match.group(0).strip()))
            continue
        if kind == "amount":
            # An amount is a fact; the word "salary" only as a label or a short line ("Compensation", "Salary:
            # on request"), not in a site's sentence about its "salary data" or "salary shifts", nor as a form's
            # field label ("Current Salary", an input for the applicant's pay).
            match = next((m for m in pattern.finditer(haystack) if any(ch.isdigit() for ch in m.group(0))), None)
            if match is None:
                lines = [line for line in without_form_labels().split("\n")
                         if len(line.split()) <= EMPLOYMENT_LINE_MAX_WORDS]
                match = pattern.search("\n".join(lines))
            if match is None:
                # a sentence saying how this job's pay is set ("The salary will be decided after the interview
                # based on your skills", "Compensation is competitive and depends on experience")
                match = next((m for line in without_form_labels().split("\n")
                              if len(line.split()) <= SALARY_TERMS_MAX_WORDS for m in (_SALARY_TERMS.search(line),)
                              if m), None)
            if match:
                found.append(Signal(kind, match.group(0).strip()))
            continue
        if kind == "employment":
            # "Full-time" is a fact as a value or a short line, not as a word in a site's marketing sentence.
            lines = [line for line in haystack.split("\n") if len(line.split()) <= EMPLOYMENT_LINE_MAX_WORDS]
            match = pattern.search("\n".join(lines))
            if match:
                found.append(Signal(kind, match.group(0).strip()))
            continue
        if kind == "contact":
            # A company's registration or tax number ("CVR nr. 36 39 90 66", "KvK 12345678") is no phone.
            match = next((m for m in pattern.finditer(haystack)
                          if not REGISTRATION_LABEL.search(haystack, max(0, m.start() - 24), m.start())), None)
        elif kind == "label":  # a form's "Select a file:" labels an input, not a fact beside it
            linked = {" ".join(t.split()) for t in link_texts}
            match = next((m for m in pattern.finditer(without_form_labels())
                          if not _introduces_links(m.string, m.end() - 1, linked)), None)
        else:
            match = pattern.search(haystack)
        if match:
            found.append(Signal(kind, match.group(0).strip()))
    # Chats with several different addresses are a list of other parties (a studio's client bots), not whom to write to.
    chats = {href.strip().lower() for _, href in region.links if _MESSENGER.match(href.strip())}
    for link_text, href in region.links:
        chat = href.strip().lower() in chats
        if chat and len(chats) > 1:
            continue
        contact_link = href.lower().startswith(("tel:", "mailto:")) or chat
        signal = next((m for m in _LINK_SIGNALS.finditer(href) if not _APPLICATION_AS_A_THING.match(href, m.start())),
                      None)
        if signal and bare is not None and not contact_link and link_text.strip() and link_text not in bare:
            continue  # a menu's "Informationen für Neubewerber:innen" at /wohnen/neubewerber/: a site section
        if signal and not (site_operator_only and contact_link) and not _legal_link(
                link_text, href) and href not in region.in_page_links and href not in region.posting_links:
            found.append(Signal("link", href))
            break
    if site_operator_only:
        return found
    if not any(f.kind in ("address", "location") for f in found):
        # An office written as a link (to a map) or in an <address> element: a menu's link words state nothing,
        # but a map's target and the <address> markup say the words are a place, however the street is written.
        mapped = next((t for t, href in region.links if t and MAP_LINK.search(href or "")), "")
        if mapped:
            found.append(Signal("address", mapped[:60], (MAP_LINK_NOTE,)))
        elif region.postal_address and region.text:
            found.append(Signal("address", region.text[:60], (ADDRESS_ELEMENT_NOTE,)))
        elif region.beside_map_link and region.text:
            found.append(Signal("address", region.text[:60], (MAP_LINK_BESIDE_NOTE,)))
        elif region.site_footer:
            # "Kathmandu, Nepal" on a line of its own (a link's too) in the site footer: where the employer is,
            # by the place names alone (GeoNames), however the line is marked up.
            place = _town_and_country_in(region.text) or _towns_line_in(region.text)
            if place:
                found.append(Signal("location", place.strip()[:60], (PLACE_LINE_NOTE,)))
    if region.site_footer and not any(f.kind == "contact" or (f.kind == "link" and f.text.startswith("mailto:"))
                                      for f in found):
        mailbox = owners_mailbox(haystack + "\n" + "\n".join(h for _, h in region.links), (*employers, owner_name))
        if mailbox:
            found.append(Signal("contact", mailbox, (SITE_MAILBOX_NOTE,)))
    if _LABEL_VALUE_MARKUP.search(region.html) and _values_state_text(region.html):
        found.append(Signal(LABEL_VALUE_KIND, "", (LABEL_VALUE_NOTE,)))
    # Whitespace as one space: a name set in two blocks ("<div>Acme</div><div>Labs</div>") is still the name.
    lowered = " ".join(" ".join([text, region.label]).lower().split())
    for name in employers if not any(f.kind == "employer" for f in found) else ():  # one says enough
        # The site owner's logo states its name by its alt text (Markdown keeps it).
        alts = _ALT.findall(region.html) if region.image_alts is None else region.image_alts
        # The owner's name as a menu's brand link to the home page ("<a class=navbar-brand href=/>Acme Lab</a>")
        # states it too: a menu's link words are read for categories above, not for the owner's name. Links to
        # other pages ("Acme hiring: Welder") are other postings' or the site's sections.
        said = lowered if name != owner else " ".join(
            [lowered, *alts, *(t for t, href in region.links if _home_page(href))]).lower()
        # A menu's words are read glued (see is_link_menu above): the owner's name, where only template states it,
        # is looked for glued there too.
        if len(name) >= 3 and (name.lower() in said or (name == owner and " " in name
                                                         and _squash(name.lower()) in _squash(said))):
            found.append(Signal("employer", name))
            break
    if region.time_stamp and not any(f.kind == "date" for f in found) and not region.site_footer:
        found.append(Signal("date", region.time_stamp))
    if region.section_heading and not region.site_footer and not any(
            f.kind in ("benefit", "requirement", "amount") for f in found):
        found.append(Signal("section", region.section_heading))
    # A section of the job headed by what the employer offers ("What we offer", "Wir bieten"): its items are
    # benefits, though no benefit word may be among them. Not a menu's, not the site footer's.
    heading = next((line.strip() for line in text.split("\n") if line.strip()), "")
    if not any(f.kind == "benefit" for f in found) and not region.site_footer and not is_link_menu(region) and len(
            heading.split()) <= SECTION_HEADING_MAX_WORDS and _OFFER_HEADING.search(heading):
        found.append(Signal("benefit", heading))
    if owner_name and not any(f.kind == "employer" for f in found):
        line = openings_line(haystack, owner_name)
        if line:
            found.append(Signal("employer", owner_name, (OPENINGS_NOTE,)))
    return _with_copyright_line(found, haystack, (*employers, owner_name))


# "Openings at Acme", "Jobs at Acme", "Acme Careers", "Karriere bei Acme": a short line naming the site owner's
# jobs (a back link to the list, a section heading) states whose job this is, the employer, like a copyright line.
_OPENINGS_WORDS = re.compile(r"\b(?:jobs?|careers?|openings?|vacanc(?:y|ies)|positions?|opportunities|karriere|"
                             r"stellen\w*|jobangebote|emplois?|carri[eè]res?|offres|vacatures|työpaikat|"
                             r"lediga jobb|ofertas|empleos?|lavora con noi|kariér\w*|kariera|pracovné ponuky|"
                             r"求人|採用|채용)\b", re.I)
OPENINGS_LINE_MAX_WORDS = 6


def openings_line(text: str, owner: str) -> str:
    """The first short line of ``text`` that names the site owner's jobs ("Openings at Acme", "Acme Careers"),
    or ''. Only the owner's name (the site is no board) and only a short line: a sentence naming the owner's
    careers page is marketing."""
    wanted = owner.casefold()
    if len(wanted) < 3:
        return ""
    for line in text.split("\n"):
        words = line.split()
        if 0 < len(words) <= OPENINGS_LINE_MAX_WORDS and wanted in line.casefold() and _OPENINGS_WORDS.search(
                line.casefold().replace(wanted, " ")):
            return line
    return ""


COPYRIGHT_LINE_MAX_CHARS = 200


def copyright_line(text: str, names: tuple[str, ...]) -> str:
    """The first line of ``text`` that is a copyright notice naming the employer: one of ``names`` (the source's
    company, the JSON-LD employer, the site owner) or a legal form ("© 2026 Acme B.V."); '' when there is none."""
    wanted = [name.casefold() for name in names if name and len(name) >= 3]
    for line in text.split("\n"):
        if len(line) > COPYRIGHT_LINE_MAX_CHARS or not COPYRIGHT_MARK.search(line):
            continue
        if any(name in line.casefold() for name in wanted) or JOB_FACT_SIGNALS["employer"].search(line):
            return line
    return ""


def _with_copyright_line(found: list[Signal], haystack: str, names: tuple[str, ...]) -> list[Signal]:
    """On a site that is no board, the site's copyright line is how it states its owner's name, the employer's
    (a footer's "© Acme 2026 All Rights Reserved."): the employer signal says so, and a copyright line naming the
    site owner is the employer even where the name alone would not count (the owner is stated elsewhere too).
    Kept parts that only name the employer prefer it (``_one_employer_statement``), and it is never dropped as
    a needless repetition of the owner's name."""
    line = copyright_line(haystack, names)
    if not line:
        return found
    for i, signal in enumerate(found):
        if signal.kind == "employer":
            found[i] = signal.noted(COPYRIGHT_NOTE)
            return found
    owner = next((name for name in names if name and len(name) >= 3 and name.casefold() in line.casefold()), "")
    return found + ([Signal("employer", owner, (COPYRIGHT_NOTE,))] if owner else [])


class RulesClassifier(RegionClassifier):
    """Conservative offline classifier: removes only regions with no job-fact signal, and says so."""

    name = RULES_NAME
    splits_kept_regions = True

    def review_batch(self, batch):
        verdicts = {}
        for region in batch:
            if region.directory_entries:
                verdicts[region.id] = RegionVerdict("remove", DIRECTORY_REASON, self.name)
                continue
            signals = job_fact_signals(region, self.employers, self.site_operator_only, self.owner,
                                       self.site_owner_name)
            if signals:
                verdicts[region.id] = RegionVerdict("keep", signals_reason(signals), self.name, tuple(signals))
            else:
                verdicts[region.id] = RegionVerdict(
                    "remove", "rules: no job-fact signal (amounts, dates, locations, addresses, contact or apply "
                              "links, benefit, requirement or employment words, employer names, label/value rows, "
                              "closed-vacancy notices)",
                    self.name)
        return verdicts


# --- OpenAI-compatible model --------------------------------------------------------------------------------
def review_prompt() -> str:
    return (files("gigflow.noise.learn") / "prompts" / "region_review.md").read_text(encoding="utf-8")


def response_format() -> dict:
    """Strict structured output: the pydantic schema with every property required and no extra keys."""
    return {"type": "json_schema",
            "json_schema": {"name": "region_decisions", "strict": True, "schema": RegionDecisions.model_json_schema()}}


class OpenAIClassifier(RegionClassifier):
    """Calls an OpenAI-compatible chat completions endpoint with a strict JSON schema."""

    def __init__(self, settings: NoiseSettings, client=None):
        super().__init__(settings)
        if not settings.model:
            raise ValueError("no model configured: set GIGFLOW_NOISE_MODEL (or NOISE_MODEL) or use --classifier rules")
        self.name = f"openai:{settings.model}"
        if client is None:
            from openai import OpenAI

            client = OpenAI(base_url=settings.base_url or None, api_key=settings.api_key or "unused",
                            timeout=settings.timeout, max_retries=0)
        self.client = client

    def review_batch(self, batch):
        from openai import OpenAIError

        self.usage.calls += 1
        payload = {"regions": [r.as_prompt() for r in batch]}
        employers = tuple(dict.fromkeys(self.employers + ((self.site_owner_name,) if self.site_owner_name else ())))
        if employers:  # the source's company or the site's owner: its name in a region is a job fact (the employer)
            payload["employer"] = list(employers)
        if self.site_operator_only:  # a board: shared regions are the operator's, not a job's
            payload["site"] = ("a job board: the samples name different employers, so every region here (shared by "
                               "all samples) belongs to the site operator; its address, phone or legal name is not "
                               "a fact of the job")
        try:
            response = self.client.chat.completions.create(
                model=self.settings.model,
                messages=[{"role": "system", "content": review_prompt()},
                          {"role": "user", "content": json.dumps(payload, ensure_ascii=False)}],
                response_format=response_format(), temperature=0, timeout=self.settings.timeout)
        except OpenAIError as exc:
            raise BatchError(f"model call failed: {type(exc).__name__}: {exc}") from exc
        usage = getattr(response, "usage", None)
        if usage is not None:
            self.usage.prompt_tokens += usage.prompt_tokens or 0
            self.usage.completion_tokens += usage.completion_tokens or 0
        try:
            content = response.choices[0].message.content or ""
            decisions = RegionDecisions.model_validate_json(content)
        except (IndexError, AttributeError, ValidationError) as exc:
            raise BatchError(f"malformed model response: {str(exc).splitlines()[0]}") from exc
        checked = check_decisions(batch, decisions)
        return {rid: RegionVerdict(d.decision, d.reason, self.name) for rid, d in checked.items()}


def make_classifier(kind: str, settings: NoiseSettings) -> RegionClassifier:
    """``openai``, ``rules``, or ``auto`` (the model when one is configured, else rules)."""
    if kind == "auto":
        kind = "openai" if settings.model else "rules"
    if kind == "rules":
        return RulesClassifier(settings)
    if kind == "openai":
        return OpenAIClassifier(settings)
    raise ValueError(f"unknown classifier {kind!r}: use openai, rules or auto")
