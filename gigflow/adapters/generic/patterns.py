"""Patterns and limits the generic HTML adapter's field finders share (one place, so that they agree)."""

import re

MAX_FIELD = 200
MIN_TITLE_SCORE = 1.0
LABELLED_TITLE_SCORE = 1.8  # a "Job title:" value alone: above an unlabelled h4, below a backed heading
MAX_CANDIDATES = 2_000  # title candidates scored per page: bounded work on a hostile page
LISTING_MIN_ITEMS = 5  # alike linked items that make a page a listing of other pages
BARE_SOURCES = frozenset(("h2", "h3", "h4", "h5", "h6", "<title> part"))  # title evidence too weak on a listing

# Boilerplate containers: fields found inside them belong to the site, not the vacancy.
CHROME_TAGS = {"header", "nav", "footer", "dialog", "aside", "form"}
PAGE_TAGS = ("html", "body")
BLOCK_TAGS = ("div", "p", "ul", "ol", "table", "section", "article")
MAX_WRAPPERS = 4
BUTTON_CLASS = re.compile(r"(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])", re.I)
SHORT_CODE_PAIR = re.compile(r"\b([A-Za-z]{2,3})/([A-Za-z]{2,3})\b")  # "AL/ML", "UX/UI": one abbreviation
SENTENCE_WORDS = 9  # an h1 this long beside a shorter h1 reads as a sentence (a slogan), not a job's name
SEPARATOR_ONLY = re.compile(r"^[\s·•|,/–—-]*$")
# Class words of one item of a list (cards of other jobs, search results, a CMS's post loop).
CARD_CLASS = re.compile(r"(^|[-_ ])(card|item|post|job|result|listing|teaser|tile|entry)s?($|[-_ ])", re.I)  # blocks a page builder wraps around one heading or line
CAMEL_CASE = re.compile(r"([a-z])([A-Z])")
FRAME_TOKENS = re.compile(r"cookie|modal|popup|dialog|login|sign-?in", re.I)
# Fields a label row may give from inside a nav- or header-classed block (never the title).
CHROME_LABEL_FIELDS = frozenset(("location", "salary", "employment_type", "valid_through", "date_posted", "employer",
                                 "apply_url"))
CHROME_TOKENS = re.compile(r"(^|[-_ ])(header|gnb|lnb|nav|navbar|menu|footer|modal|popup|layer|dialog|cookie|"
                           r"breadcrumbs?|sidebar|related|similar|recommend\w*|sign-in|signin|login|toast)($|[-_ ])",
                           re.I)
TITLE_CLASS = re.compile(r"(^|[-_ ])(job|posting|vacancy|vacature|position|detail|topcard|top-card|hero|head)"
                         r"[-_]{0,2}(title|name|ttl)($|[-_ ])|^title$", re.I)
# A class token that ends with the word ("job-company") or goes on only with a word for its name ("company-name",
# "employer__title-text"): "company-stats", "company-benefits", "company-description" hold more than a name.
EMPLOYER_ATTR = re.compile(r"(^|[-_ ])(company|employer|advertiser|hiring-?organi[sz]ation|org|corp|werkgever)"
                           r"([-_ ]{1,2}(name|info|link|title)([-_ ]|$)|\s|$)", re.I)
LOCATION_ATTR = re.compile(r"(^|[-_ ])(job[-_]?)?(location|locations|joblocation|workplace|standort|locatie)"
                           r"($|[-_ ])", re.I)
ADDRESS_ATTR = re.compile(r"(^|[-_ ])(adr|locality|address|addresslocality|city)($|[-_ ])", re.I)
ATTR_EXCLUDED = re.compile(r"logo|review|icon|site|employers|search|input|typeahead|filter|list", re.I)
APPLY_WORDS = re.compile(r"\b(apply|solliciteer|solliciteren|bewerben|bewerbung|postuler|reagovať|reageer|candidatar|"
                         r"candidatura|candidatarse|aplicar|postular|inscrever|ansök|ansøg|søg|hae|aplikuj|"
                         r"odpovědět|přihlásit|откликнуться|отклик|ứng tuyển|başvur\w*|kirim lamaran|lamar sekarang)\b|"
                         r"応募|지원하기|입사지원", re.I)
# A heading that names a form, dialog or widget of the page, never the vacancy ("Bewerbungsformular", "Apply for this
# job" over a form, "Contact form", "Newsletter", "Share this job"): its own words, or a form right under it.
WIDGET_HEADING = re.compile(r"(formular|formulier|formulaire|formulario|eingegangen)|\b(form|newsletter|cookies?|login|"
                            r"log in|sign in|anmelden|registrieren|register|share|teilen|partager|delen|subscribe|"
                            r"job alerts?|jobalert|received|thank you|vielen dank|bedankt|merci)\b", re.I)
WIDGET_CLASS = re.compile(r"(^|[-_ ])(form|modal|popup|dialog|widget|cookie|newsletter|share|toast|banner|"
                          r"overlay)s?($|[-_ ])", re.I)
# Words that make a line name an organisation ("Oakfield Primary Academy", "Acme GmbH", "St Mary's Hospital"); not
# "group" or "team", which name departments as often as employers.
ORG_WORDS = re.compile(r"\b(school|academy|college|university|universität|hochschule|schule|gymnasium|école|"
                       r"lycée|collège|school|hospital|klinik|clinic|trust|council|ministry|agency|foundation|"
                       r"stiftung|institute|institut|gmbh|ug|ltd|limited|llc|inc|plc|oy|bv|b\.v\.|nv|"
                       r"sas|sarl|srl|s\.a\.|s\.r\.o|corp|corporation)\b\.?", re.I)
PLACE_MARKERS = ("📍", "🌍", "🌎", "🌏", "🌐")  # a pin or a globe before the place
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")  # their weights as title candidates: title_rules.PROMINENCE
PROMINENT = {"td", "span", "div", "b", "strong", "p", "font", "li", "a", "dd", "em", "big", "center"}
# "Heidi hiring Senior Engineer in Melbourne | LinkedIn", "Werken bij GRIP", "Jobs at Acme", "Careers at Acme".
HIRING_TITLE = re.compile(r"^(?P<employer>.+?) hiring (?P<title>.+?) in (?P<location>.+?)(\s[|–-]\s.*)?$")
# "Acme recrute", "Acme is hiring", "Acme sucht", "Acme zoekt": a heading that announces who hires. Bare, it names
# the employer, not the job, whose name stands beside it (the next line); the job may also follow the verb.
HIRING_HEADING = re.compile(r"^(?P<employer>\S.{0,60}?)\s+(?:recrute|recrutent|is hiring|are hiring|"
                            r"sucht|suchen|zoekt|zoeken|busca|buscan|cerca|cercano|assume|rekrutuje|hledá|hľadá|"
                            r"söker|rekrytoi|contrata|recruits|is recruiting|are recruiting)"
                            r"(?:\s+(?P<job>\S.{2,120}?))?\s*[!.:]*$", re.I)
JOB_IN_TITLE = re.compile(r"^(?P<title>.+?) Job in (?P<location>.+?)(\s[|–-]\s.*)?$")
CAREERS_AT = re.compile(r"^(werken bij|careers at|jobs at|work at|working at|karriere bei|jobs bei|"
                        r"travailler chez|vacatures bij)\s+(?P<employer>.+)$", re.I)
# "Welder at Acme", "Lasser bij Acme", "Schweißer bei Acme", "Soudeur chez Acme" (the title on the left).
AT_EMPLOYER = re.compile(r"^(?P<title>.{3,120}?)\s+(?:at|@|bij|bei|chez)\s+(?P<employer>[^|–—\-:]{2,80}?)"
                         r"(?:\s+(?:in|à|te|in der)\s+(?P<location>.+))?$", re.I)
# A heading that talks to the reader ("Join us!", "Find your calling", "Waarom werken bij ons?") is a site's
# slogan, never a vacancy's title (en, nl, de, fr, sv pronouns).
SLOGAN_PRONOUNS = frozenset(("we", "us", "our", "you", "your", "wij", "ons", "onze", "jij", "jouw", "uw", "wir", "uns",
                             "unser", "unsere", "dich", "dein", "deine", "nous", "notre", "nos", "vous", "votre",
                             "vos", "vi", "oss", "vår", "våra"))
# "About Acme", "Über flaconi", "Over ons", "À propos de nous": a section about the employer
# ("Over the Road Driver" is a title, so Dutch and Swedish count only with their "us").
ABOUT_HEADING = re.compile(r"^(about|über|à propos( de)?)\s+\S|^(over ons|om oss)\b", re.I)
# A legal notice's name as a page's whole heading ("Privacy Policy", "Cookie-Richtlinie", "Mentions légales",
# "Impressum"): such a page, linked from every listing's cookie banner and footer, is never a vacancy. Whole
# heading only: "Privacy Engineer" and "Legal Counsel" are jobs.
LEGAL_HEADING = re.compile(
    r"^(?:(?:website |site |our )?(?:privacy|cookies?|data protection|data privacy)(?: (?:and|&) cookies?)? "
    r"(?:policy|notice|statement|settings|preferences)|terms(?: (?:and|&) conditions| of (?:use|service))?|"
    r"general terms(?: and conditions)?|legal notice|legal|imprint|disclaimer|accessibility statement|"
    r"impressum|datenschutz(?:erklärung|hinweise|richtlinie)?|cookie-?richtlinie|nutzungsbedingungen|agb|"
    r"mentions légales|politique de (?:confidentialité|cookies)|conditions générales(?: d'utilisation)?|"
    r"privacybeleid|privacyverklaring|cookiebeleid|algemene voorwaarden|"
    r"política de (?:privacidad|cookies)|aviso legal|informativa (?:sulla )?(?:privacy|cookie)|note legali|"
    r"integritetspolicy|personuppgiftspolicy|privatlivspolitik|tietosuojaseloste|polityka prywatności)$", re.I)
# A byline's words before the poster's name, at the end of the text before it (en, de, fr, es, it, nl, pt).
POSTED_BY = re.compile(r"\b(?:posted|published|offered|listed) by\s*$|(?:gepostet|veröffentlicht|ausgeschrieben) "
                       r"von\s*$|\bpubliée? par\s*$|\bpublicad[oa] por\s*$|\bpubblicat[oa] da\s*$|"
                       r"\bgeplaatst door\s*$", re.I)
INLINE_LABEL = re.compile(r"^([^:：]{1,40})[:：]\s*\S")
TITLE_SEPARATOR = re.compile(r"\s+[|–—-]\s+|\s*｜\s*|\s+::\s+")
WORD_SPLIT = re.compile(r"\W+")
# Words that make a heading name a list of vacancies ("Open positions at X", "1,000+ Python Jobs in Y",
# "Search results"), never one vacancy (en, nl, de, fr, sv).
LISTING_WORDS = re.compile(r"\b(jobs|vacancies|positions|openings|opportunities|roles|job listings|career listings|"
                           r"search results|"
                           r"vacatures|banen|stellen|stellenangebote|jobangebote|suchergebnisse|emplois|offres|"
                           r"postes|résultats|lediga jobb|lediga tjänster|empleos|ofertas|vacantes|trabajos|"
                           r"nabídky|pracovní místa|ponuky|вакансии|työpaikat|oferty pracy|offerte)\b", re.I)
# The holder after the sign and year, past "by", "belongs to", Vietnamese "Bản quyền thuộc về" (copyright belongs to).
COPYRIGHT = re.compile(r"(?:(?:©|&copy;|\(c\)|copyright)\s*)+(?:\d{4}(?:\s*[-–]\s*\d{4})?)?[\s,–—-]*"
                       r"(?:by\s+|(?:(?:copyright\s+)?belongs\s+to|(?:bản quyền\s+)?thuộc về)\s+|bản quyền\s+)?"
                       r"(?P<name>[^\d|.•·,][^|•·]{1,60}?)(?:[.,]?\s*(?:all rights reserved|alle rechten|"
                       r"alle rechte|tous droits)|\s*[|•·]|$)", re.I)
# A location label's value that names a way of working, not a place (en, de, nl, fr, es, cs/sk, pl, ru).
WORK_MODE_ONLY = re.compile(r"^\s*(in[- ]person|on[- ]?site|in (?:the )?office|office[- ]based|vor ort|op locatie|"
                            r"sur site|presencial|en (?:la )?oficina|na pracovišti|v kanceláři|stacjonarnie|"
                            r"в офисе|office|офис|büro|kancelář|kancelária|oficina|biuro)\s*\.?$", re.I)
# "X — a technology company", "X is a software company", "X es una empresa", "X ist ein Unternehmen" (en, ru,
# de, es, fr, nl, cs, sk, pl): a description that names the organisation it is about, first.
DESCRIBED_ORGANISATION = re.compile(r"^(?P<name>[^\s—–:;,.!?][^—–:;,.!?]{1,50}?)\s*(?:\s[—–-]\s*(?:это\s+)?|\s+(?:is|ist|es|est|"
                                    r"is een|je|jest)\s+(?:an?|ein\w*|una?|une?|een)?\s*)[^.]{0,60}?\b(?:company|firm|"
                                    r"organi[sz]ation|startup|agency|компания|организация|unternehmen|firma|empresa|"
                                    r"entreprise|société|bedrijf|organisatie|společnost|spoločnosť|spółka)\b", re.I)
BREADCRUMB = re.compile(r"breadcrumb|BreadcrumbList|drobečk|omrvink|miette|migas|хлебн", re.I)
SITE_SECTION_WORDS = (r"(?:job descriptions?|job details|job posting|careers?|jobs|karriere|stellenangebote|vacatures|"
                      r"werken bij|carrières|empleo|empleos|kariéra|kariera|вакансии|työpaikat)")
SECTION_OF_SITE = re.compile(rf"^(?P<name>\S.{{1,58}}?)\s+{SITE_SECTION_WORDS}$", re.I)
# A section word alone ("Career" in "Welder | Career"): the site's section, no one's name.
ONLY_SECTION_WORDS = re.compile(rf"{SITE_SECTION_WORDS}", re.I)
# A site name's words that say it is the recruiting site ("採用サイト｜株式会社セガ", "RACE Recruiting Site",
# "Acme Karriereportal"): the rest names the employer. An alias in lenticular brackets ("-【SEGA Co., Ltd.】") too.
_RECRUITING_WORDS = (r"(?:(?:新卒|中途|キャリア)?採用(?:サイト|情報|ページ)|recruit(?:ing|ment)? site|careers? (?:site|portal)|"
                     r"jobs? portal|karriereportal|채용\s?사이트|招聘网站?)")
RECRUITING_SITE = re.compile(rf"^\s*{_RECRUITING_WORDS}\s*|\s*{_RECRUITING_WORDS}\s*$|\s*[-–]?\s*【[^】]*】\s*$", re.I)
LEGAL_SUFFIX = re.compile(r"[\s,]+(inc|llc|ltd|gmbh|bv|b\.v|nv|n\.v|sa|ag|plc|corp|co)\.?$", re.I)
POSTED_PHRASE = re.compile(r"\b(?:posted|published|added|geplaatst|gepubliceerd|veröffentlicht|eingestellt|"
                           r"publié|publiée|mis en ligne|publicado|publicada|pubblicato|julkaistu|publicerad|"
                           r"udgivet|opublikowano|dodano|zveřejněno|přidáno|zverejnené|pridané|опубликовано|"
                           r"размещено)\b(?:\s+(?:on|op|am|le))?\s*:?\s*(?P<date>[^\n|•·]{3,60})",
                           re.I)
CLOSING_PHRASE = re.compile(r"\b(?:apply (?:by|before)|applications? close[sd]?(?: on)?|closing date(?: is)?|"
                            r"closes(?: on)?|deadline(?: is)?|bewerb\w* (?:sie sich |dich )?bis(?: zum)?|"
                            r"bewerbungsschluss(?: ist)?|reageer (?:voor|vóór|uiterlijk)|solliciteer (?:voor|vóór)|"
                            r"date limite(?: de candidature)?|postuler avant le|haku päättyy|plazo(?: de inscripción)? "
                            r"hasta)\b\s*:?\s*(?P<date>[^\n|•·]{3,60})", re.I)
DATE_META = ("article:published_time", "datepublished", "date", "dc.date", "dc.date.issued", "dcterms.created",
             "publish-date", "pubdate", "og:published_time")
