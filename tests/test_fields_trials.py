"""Job records as a new user met them on an unseen site (wave 3, ninth stop): a metering company's TYPO3 career
site (hold-out 23's kalo), crawled from 127.0.0.1 as the getting-started guide does (the public body's trial, its
status badge and section headings, is in tests/test_closed_vacancy.py). One synthetic page per class of error;
pure extraction through the whole chain; each behaviour test fails on the code before (commit e7506e8)."""

from __future__ import annotations

from gigflow.adapters import extract
from gigflow.adapters.generic.text import is_slogan

URL = "https://careers.example/karriere/jobs/show/"
TEXT = ('<p>Wir suchen Verstärkung für unser Team und freuen uns auf Ihre Bewerbung. Sie betreuen unsere Kunden, '
        'planen Termine und arbeiten eng mit den Kolleginnen und Kollegen aus der Technik zusammen.</p>')


def job_of(html: str, company: str | None = None):
    result = extract(html.encode(), url=URL, content_type="text/html", company=company)
    assert result.jobs, result.warnings
    return result.jobs[0]


def _plugin_page(title: str, line: str, tagline: str = "Einfach. Innovativ. Persönlich.") -> str:
    # A CMS plugin page: every posting has the same <title> ("Show - <site> - <tagline>"); the tagline is also in
    # bold in the page's text, and the job's title is an h3 with a line of facts under it.
    return (f"<html><head><title>Show - Nordwerk - {tagline}</title></head><body>"
            f"<header><a href='/'>Nordwerk</a></header><main><div class='job'><h3>{title}</h3>"
            f"<p><strong>{line}</strong></p>{TEXT}<p><strong>{tagline}</strong></p></div></main></body></html>")


def test_a_tagline_of_one_word_sentences_is_no_title():
    job = job_of(_plugin_page("Data Analyst (w/m/d)", "Analytics | Nordwerk Zentrale Hamburg"))
    assert job.title == "Data Analyst (w/m/d)"


def test_a_department_code_leading_the_line_is_no_place():
    job = job_of(_plugin_page("Solution Architect (w/m/d)", "IT | Nordwerk Zentrale Hamburg"))
    assert job.location == "Nordwerk Zentrale Hamburg"


def test_the_sites_name_is_no_location():
    page = ("<html><head><title>Show - Kalo - Einfach. Innovativ. Persönlich.</title>"
            "<meta property='og:site_name' content='Kalo'></head><body><main><div class='job'>"
            f"<h3>Data Analyst (w/m/d)</h3>{TEXT}</div></main></body></html>")
    assert job_of(page, company="Kalo").location != "Kalo"


def test_a_department_leading_the_line_is_no_employer_where_the_source_names_its_company():
    page = _plugin_page("Freiberuflicher Ableser (m/w/d)", "Ablesung | Hamburg", "Stellenangebote")
    assert job_of(page, company="Nordwerk").employer == "Nordwerk"
    assert job_of(page.replace("Ablesung", "Messdienst Süd GmbH"), company="Nordwerk").employer \
        == "Messdienst Süd GmbH"  # an organisation named on the line is the employer


def test_guard_titles_with_abbreviations_and_places_after_a_word_stay():
    plain = "Karriere bei Nordwerk"
    assert job_of(_plugin_page("Sr. Eng. Data (w/m/d)", "Analytics | Hamburg", plain)).title == "Sr. Eng. Data (w/m/d)"
    assert job_of(_plugin_page("Monteur (m/w/d)", "Kundendienst | Hannover", plain)).location == "Hannover"


# --- wave 3, tenth stop: a community job board (hold-out 27's pythonjobs) and a consultancy's site (konato) -------

BOARD = "https://board.example/jobs/backend-engineer.html"


def _board_posting(byline: str, facts: str) -> str:
    return (f"<html><head><title>Backend Engineer | The Free Job Board</title>"
            f"<meta property='og:site_name' content='The Free Job Board'></head><body><header><a href='/'>The Free Job "
            f"Board</a></header><main><article><h1>Backend Engineer</h1><div class='head'>{byline}<div>{facts}</div>"
            f"</div><div><p>You build the services behind our music platform, review code and help the team ship "
            f"every week. We work in small teams and care about tests.</p></div></article></main></body></html>")


def board_job(html: str):
    result = extract(html.encode(), url=BOARD, content_type="text/html")
    assert result.jobs, result.warnings
    return result.jobs[0]


def test_a_boards_byline_names_the_employer_and_the_date():
    job = board_job(_board_posting("Posted by <span><a href='https://apply.acme-music.example/j/1'>Acme Music</a>"
                                   "</span> on <span>Tue, 23 Nov 2021</span>", "Location: <span>Remote</span>"))
    assert job.employer == "Acme Music" and job.date_posted == "2021-11-23"


def test_guard_an_authors_byline_linking_to_the_site_is_no_employer():
    job = board_job(_board_posting("Posted by <a href='/authors/jane/'>Jane Doe</a> on 23 Nov 2021",
                                   "Location: <span>Remote</span>"))
    assert job.employer != "Jane Doe"


def test_two_labels_on_one_line_are_two_values():
    job = board_job(_board_posting("Posted by <a href='https://acme.example/'>Acme</a>",
                                   "Contract type: <span>contract</span>.  Location: <span>Washington, D.C., Remote"
                                   "</span>"))
    assert job.employment_type == "contract" and job.location == "Washington, D.C., Remote"


def test_a_legal_notice_is_no_vacancy():
    for heading in ("Cookie Policy", "Privacy Policy", "Impressum", "Mentions légales"):
        page = (f"<html><head><title>{heading} - Acme</title></head><body><main><h1>{heading}</h1><p>We keep what "
                f"you send us for as long as the law asks and no longer than that, in the European Union.</p></main>"
                f"</body></html>")
        result = extract(page.encode(), url="https://acme.example/cookie-policy/", content_type="text/html")
        assert not result.jobs and any("legal notice" in w for w in result.warnings)
    assert board_job(_board_posting("", "Location: Remote").replace("Backend Engineer</h1>",
                                                                      "Privacy Engineer</h1>")).title == "Privacy Engineer"


def test_a_working_time_is_no_date():
    """"32 hours a week" beside the title read as a posting date counted back from the clock (a different date on
    every run); a duration with no year or date beside it is none. Relative dates still need their marker."""
    from datetime import datetime, timezone

    from gigflow.adapters.dates import find_date

    fetched = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
    for text in ("32 hours a week", "3 days a week", "1 week", "6 Monate befristet"):
        assert find_date(text, fetched_at=fetched) is None, text
    assert find_date("posted 3 days ago", fetched_at=fetched) == "2026-11-28"
    assert find_date("Tue, 23 Nov 2021") == "2021-11-23"


# --- wave 3, tenth stop: records read on the new hold-outs' pages (none of them studied for this) -------------

def test_a_german_gender_form_is_no_place():
    from gigflow.adapters.gazetteer import place_score

    assert place_score("Software-Architekt/in") == 0.0 and place_score("Entwickler:innen") == 0.0
    assert place_score("Frankfurt am Main") == 1.0
    job = job_of("<html><body><main><h1>Software-Architekt (m/w)</h1><h2>Software-Architekt/in</h2>" + TEXT
                 + "</main></body></html>")
    assert job.location != "Software-Architekt/in"


def test_a_preloader_image_and_a_field_label_are_no_employer():
    page = ("<html><head><title>Cloud Engineer</title></head><body><div class='preloader'><img class='logo-loader' "
            "src='/images/logo-preloader.gif' alt='preloader'></div><main><h1>Cloud Engineer</h1>"
            "<p class='info-row'><span class='label'>Expected start date</span><span class='data'>2023-10-01</span>"
            "</p>" + TEXT + "</main></body></html>")
    job = job_of(page)
    assert job.employer not in ("preloader", "Expected start date")


def test_the_h1_that_opens_a_posting_written_in_markdown_is_its_title():
    sections = "".join(f"<h1 id='{slug}'>{name}</h1>{TEXT}" for slug, name in
                       (("context", "Context"), ("tasks", "Tasks"), ("skills", "Skills"), ("contacts", "Contacts")))
    page = ("<html><head><title>Inria Research Team</title></head><body><main><h1>Software Design and Development "
            "Engineer (M/F): vulnerabilities in code generated by LLMs (TAP project)</h1><div class='information'>"
            "<p><span class='label'>Position</span><span class='data'><span class='badge badge-blue'>ENGINEER</span>"
            f"</span></p></div><div id='page-content'>{sections}</div></main></body></html>")
    assert job_of(page).title.startswith("Software Design and Development Engineer (M/F)")


# --- Japanese career sites (hold-out 38, read as a new user's first records; wave 3, eleventh stop) -----------

_JP_TEXT = ("<p>当社のオンラインゲームの企画・運営をお任せします。チームと協力し、新しい遊びを提案していただきます。"
            "ユーザーの声を分析し、改善を続けてください。</p>")


def _japanese_posting(page_heading: str, site_name: str, logo_alt: str = "") -> str:
    logo = f"<img src='/img/logo.png' alt='{logo_alt}'>" if logo_alt else ""
    return (f"<html><head><title>リードプランナー | 中途採用情報 | {site_name}</title>"
            f"<meta property='og:site_name' content='{site_name}'></head><body><header><a href='/'>{logo}</a>"
            f"</header><main><h2 class='pagetitle'>{page_heading}</h2><h3>PCオンライン リードプランナー</h3>"
            f"{_JP_TEXT}<table><tr><th>雇用形態</th><td>正社員</td></tr></table></main></body></html>")


def test_a_japanese_page_heading_is_no_title_and_the_recruiting_site_no_employer():
    job = job_of(_japanese_posting("募集要項詳細", "採用サイト｜株式会社アクメ -【ACME Co., Ltd.】"))
    assert job.title == "PCオンライン リードプランナー" and job.employer == "株式会社アクメ"
    job = job_of(_japanese_posting("Recruit 募集要項", "", logo_alt="ACME Recruiting Site"))
    assert job.title == "PCオンライン リードプランナー" and job.employer == "ACME"


def test_a_host_standing_in_for_the_company_names_no_employer():
    # `sources try URL` without --company configures the host; the page's own name for its owner wins.
    job = job_of(_japanese_posting("募集要項詳細", "採用サイト｜株式会社アクメ"), company="careers.example")
    assert job.employer == "株式会社アクメ"
    assert job_of(_japanese_posting("募集要項詳細", "採用サイト｜株式会社アクメ"), company="Acme KK").employer == "Acme KK"


# --- An incubator's postings (hold-out 49, a new user's first records; wave 3, twelfth stop) ------------------

_FR_TEXT = ("<p>Vous rejoignez une petite équipe qui construit un service public numérique. Vous accompagnez les "
            "usagers, animez les partenariats et mesurez l'impact du service chaque semaine.</p>")


def _incubator_posting(hero: str, subtitle: str, sections=("Objectifs", "Missions", "Profil")) -> str:
    body = "".join(f"<h2>{name.upper()}</h2>{_FR_TEXT}" for name in sections)
    return ("<html><head><title>Recrutement — incubateur.example</title></head><body><header><a href='/'>"
            "<img src='/logo.svg' alt='incubateur.example'></a><nav><a href='/startups/'>Startups</a></nav></header>"
            f"<div class='page'><div class='hero'><h1 class='article__title'>{hero}</h1>"
            f"<p class='article__title'>{subtitle}</p></div><section>{body}</section></div></body></html>")


def test_a_heading_announcing_who_hires_names_the_employer_and_the_line_under_it_the_job():
    job = job_of(_incubator_posting("Etalab recrute", "un.e Data Engineer"))
    assert job.title == "un.e Data Engineer" and job.employer == "Etalab"
    job = job_of(_incubator_posting("Northwind is hiring", "Senior Support Specialist"))
    assert job.title == "Senior Support Specialist" and job.employer == "Northwind"


def test_the_site_announcing_its_own_hiring_is_no_employer_and_a_research_title_no_announcement():
    job = job_of(_incubator_posting("incubateur.example recrute", "Référent(e) territorial(e)"))
    assert job.title == "Référent(e) territorial(e)" and job.employer != "incubateur.example recrute"
    page = _incubator_posting("Ingénieur recherche", "Laboratoire de mécanique")
    assert job_of(page).title == "Ingénieur recherche"  # "recherche" (research) announces nothing


# --- A brasserie's vacancies (hold-out 50, a new user's first records; wave 3, twelfth stop) -------------------

_NL_TEXT = ("<p>Ben je stressbestendig, flexibel en werk je graag in een enthousiast team? Je bereidt gerechten, "
            "houdt de keuken proper en werkt volgens de HACCP-normen.</p>")


def _brasserie_posting(doc_title: str, heading: str) -> str:
    return (f"<html><head><title>{doc_title}</title></head><body><header><a href='/'><img src='/logo.png' "
            f"alt='Rubens'></a></header><main><p><a href='/vacatures/'>← Alle vacatures</a></p><h1>{heading}</h1>"
            f"{_NL_TEXT}<p><a href='mailto:jobs@brasserie.example'>Mail ons</a></p></main>"
            "<footer><p>© 2026 Brasserie Rubens</p></footer></body></html>")


def test_a_heading_that_goes_on_past_the_document_title_is_the_fuller_title():
    job = job_of(_brasserie_posting("Vacature kok - Brasserie Rubens Knokke", "Vacature kok (koude en/of warme keuken)"))
    assert job.title == "Vacature kok (koude en/of warme keuken)" and job.employer == "Brasserie Rubens Knokke"
    # A heading that goes on with a bar and a field is not (hold-out 9's "Manual Tester | Full-time Position").
    job = job_of(_brasserie_posting("Manual Tester - Brasserie Rubens", "Manual Tester | Full-time Position"))
    assert job.title == "Manual Tester"


def test_a_job_wanted_with_an_exclamation_mark_is_a_title():
    job = job_of(_brasserie_posting("Vacature jobstudent - Brasserie Rubens Knokke", "Hands-on jobstudent gezocht!"))
    assert job.title == "Hands-on jobstudent gezocht!"
    assert is_slogan("Koch gesucht! Wir freuen uns auf dich!")  # one that talks to the reader is still a slogan
    assert is_slogan("Join us!") and not is_slogan("Cuoco cercasi!")


# --- A niche board's postings (hold-out 48, a new user's first records; wave 3, twelfth stop) ------------------

def _niche_board_posting(title: str, website: str, label: str = "Website") -> str:
    return (f"<html><head><title>{title}</title></head><body><div class='header'><a href='https://jobs.example'>"
            f"All Jobs</a><div class='title'>{title}</div></div><div class='row'><div class='post'>"
            "<p>You answer our customers' questions by mail and chat and write the help centre's articles. You "
            "work with the product team on what customers ask for most.</p></div><div class='about'>"
            f"<p><strong>Location</strong><br><span>Remote</span></p><p><strong>{label}</strong><br>"
            f"<a href='{website}'>{website}</a></p></div></div></body></html>")


def test_the_company_a_website_row_names_is_the_titles_first_words():
    assert job_of(_niche_board_posting("Wistia Director of Customer Happiness", "http://wistia.com")).employer == "Wistia"
    assert job_of(_niche_board_posting("Customer.io Support Engineer", "https://customer.io/")).employer == "Customer.io"
    # A title the site's name does not start names nobody that way.
    assert job_of(_niche_board_posting("Director of Customer Happiness", "http://wistia.com")).employer != "Director"


# Wave 3, thirteenth stop: a machine-tool dealer's own job pages (hold-out 56), tried as a new user would.
def _stats_page(title: str, head: str) -> str:
    return (f"<html><head><title>{head}</title></head><body><section class='hero'><h1>{title}</h1>"
            f"<p>Memmingen | Vollzeit</p></section><section>{TEXT}</section><section class='company-profile'>"
            "<h2>Über uns</h2><div class='company-stats'><div class='stat-card'><div>100</div><div>Jahre Erfahrung"
            "</div></div><div class='stat-card'><div>40+</div><div>Mitarbeiter</div></div></div></section>"
            "</body></html>")


def test_a_class_that_goes_on_past_company_is_no_employer_and_a_job_section_names_its_owner():
    # "company-stats" holds figures about the company, not its name; "Lagermitarbeiter | Pöppel Jobs" names the
    # company's own job section, whose owner is Pöppel.
    job = job_of(_stats_page("Lagermitarbeiter (m/w/d)", "Lagermitarbeiter (m/w/d) | Pöppel Jobs"))
    assert job.employer == "Pöppel", job.employer
    named = _stats_page("Lagermitarbeiter (m/w/d)", "Lagermitarbeiter (m/w/d)").replace(
        "<h2>Über uns</h2>", "<h2>Über uns</h2><p class='company-name'>R. Pöppel GmbH & Co. KG</p>")
    assert job_of(named).employer == "R. Pöppel GmbH & Co. KG"


def test_a_facts_line_marked_as_the_location_keeps_its_places():
    # The same pages' hero line, class "location": "📍 Memmingen | Vollzeit | Unbefristet".
    def located(line: str) -> str:
        return job_of(_stats_page("Lagermitarbeiter (m/w/d)", "Lagermitarbeiter (m/w/d)").replace(
            "<p>Memmingen | Vollzeit</p>", f"<p class='location'>{line}</p>")).location
    assert located("📍 Memmingen | Vollzeit | Unbefristet") == "Memmingen"
    assert located("Berlin · Remote") == "Berlin"
    assert located("Remote | Vollzeit") == "Remote | Vollzeit"  # no place in it: left as the page says it


# Wave 3, fourteenth stop: a media company's Jekyll job pages (hold-out 66), tried as a new user would.
def _place_suffixed_heading(heading: str, head: str) -> str:
    return (f"<html><head><title>{head}</title></head><body><nav><a href='/'>Acme Media</a> <a href='/jobs'>Careers"
            f"</a></nav><div class='job'><a href='/jobs'>&larr; Back to all positions</a><h2>{heading}</h2>{TEXT}"
            "<h4>Requirements</h4><ul><li>Python</li></ul><h4>Preferred</h4><ul><li>A startup</li></ul>"
            "<h3>How to apply</h3><p>Mail us.</p></div></body></html>")


def test_a_heading_that_adds_a_place_to_the_job_is_the_title():
    # The <title> says "Software Engineer | Acme Media", the h2 "Software Engineer - NY": half of the heading is a
    # place, the other half the job. The h4 "Preferred" (a section) was taken for the title.
    job = job_of(_place_suffixed_heading("Software Engineer - NY", "Software Engineer | Acme Media"))
    assert job.title == "Software Engineer - NY", job.title


# The same stop, hold-out 66's holler (a Jekyll site built on a laptop): every page states og:url
# "http://localhost:4000", and its footer is a <div id="footer"> of link columns under headings.
PAGE = "https://www.acme-media.example/careers/program-manager"


def _built_on_a_laptop(head: str, footer_tag: str = "div id='footer'") -> str:
    close = footer_tag.split()[0]
    return (f"<html><head><title>Acme | Program Manager</title>{head}</head><body><div class='menu'><a href='/about'>"
            f"About</a> <a href='/careers'>Careers</a></div><div class='job'><h2>Program Manager</h2><p>New York, "
            f"New York</p>{TEXT}</div><{footer_tag}><div class='col'><h4>Contact</h4><a href='mailto:contact@acme.example'>"
            "contact@acme.example</a></div><div class='col'><h4>Company</h4><a href='/careers'>Careers</a><br>"
            f"<a href='/press'>Press</a></div><p>© 2019 Acme Media, Inc</p></{close}></body></html>")


def _job_at(html: str, url: str = PAGE):
    result = extract(html.encode(), url=url, content_type="text/html")
    assert result.jobs, result.warnings
    return result.jobs[0]


def test_a_development_builds_address_or_the_sites_home_is_not_the_jobs_url():
    # Each would give every job of the site one URL (the fetch guard drops a localhost one, and the job with it).
    for head in ("<meta property='og:url' content='http://localhost:4000'>",
                 "<link rel='canonical' href='http://127.0.0.1:4000/careers/program-manager'>",
                 "<link rel='canonical' href='https://www.acme-media.example/'>"):
        assert _job_at(_built_on_a_laptop(head)).url == PAGE, head
    # A canonical that names a page keeps naming it; a page served from its development host keeps that host's.
    other = "https://www.acme-media.example/jobs/program-manager-nyc"
    assert _job_at(_built_on_a_laptop(f"<link rel='canonical' href='{other}'>")).url == other
    assert _job_at(_built_on_a_laptop("<meta property='og:url' content='https://www.acme-media.example/'>"),
                   url="https://www.acme-media.example/").url == "https://www.acme-media.example/"
    posting = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": "JobPosting", '
               '"title": "Program Manager", "url": "http://localhost:4000/careers/program-manager", '
               '"hiringOrganization": {"@type": "Organization", "name": "Acme Media"}}</script>')
    assert _job_at(_built_on_a_laptop(posting)).url == PAGE
    # a stated address that does not parse (a hostile page's) names nothing either, and breaks nothing
    for broken in ('"url": "http://[bad/careers"', ):
        assert _job_at(_built_on_a_laptop(posting.replace('"url": "http://localhost:4000/careers/program-manager"',
                                                          broken))).url == PAGE
    assert _job_at(_built_on_a_laptop("<link rel='canonical' href='http://[bad/x'>")).url == PAGE


def test_a_footer_blocks_column_heading_is_no_label():
    # "Company" over the links "Careers", "Press" is a menu column, as it is in a <footer>.
    assert _job_at(_built_on_a_laptop("")).employer != "Careers"
    assert _job_at(_built_on_a_laptop("", footer_tag="footer")).employer != "Careers"


def test_a_position_label_that_gives_the_kind_of_position_is_no_title():
    # Hold-out 46's mantra (seen once the snapshot gave every page a URL): "Position: Full-time/ Permanent" in a box
    # beside the h1 was taken for the title on 4 of 5 pages.
    page = ("<html><head><title>Office Manager job at Acme Systems | Acme Systems</title></head><body><main>"
            f"<h1>Office Manager</h1><p>We are seeking an Office Manager.</p><dl><dt>Position</dt><dd>Full-time/ "
            f"Permanent</dd><dt>Salary</dt><dd>£30,000</dd></dl>{TEXT}</main></body></html>")
    assert _job_at(page).title == "Office Manager"
    labelled = page.replace("<h1>Office Manager</h1>", "").replace("Full-time/ Permanent", "Office Manager")
    assert _job_at(labelled).title == "Office Manager"  # a position label that names the job still does


# Hold-out 76's dwork (wave 3, fifteenth stop, tried as a new user): "<h1>Korean Translator ($650+) <small>Ho Chi Minh
# City, Vietnam</small></h1>" under the <title> "Korean Translator ($650+) - Dwork Co., ltd". The title took the
# small place in, the salary was $650 to $650 (a "+" opens it above) read as a year's pay (the "an" of "Korean"),
# and its text was the whole <title>. Each test but the guard fails on the code before (commit 5317ca3).

def _small_place_page(title: str, pay: str) -> str:
    return (f"<html><head><title>{title} ({pay}) - Dwork Co., ltd</title></head><body><header><a href='/'>Dwork</a>"
            f"</header><div class='container'><h1>{title} ({pay}) <small>Ho Chi Minh City, Vietnam</small></h1>"
            f"{TEXT}</div></body></html>")


def test_a_headings_small_place_is_no_part_of_the_title():
    job = job_of(_small_place_page("Korean Translator", "$650+"))
    assert job.title == "Korean Translator ($650+)"


def test_guard_a_heading_keeps_a_small_that_names_no_place():
    html = (f"<html><head><title>Magazijnmedewerker</title></head><body><main><h1>Magazijnmedewerker <small>"
            f"(avondploeg)</small></h1>{TEXT}</main></body></html>")
    assert job_of(html).title == "Magazijnmedewerker (avondploeg)"


def test_an_amount_open_above_is_a_minimum_and_its_text_the_bracket():
    from gigflow.adapters.text_patterns import parse_salary

    salary = parse_salary("Korean Translator ($650+) - Dwork Co., ltd")
    assert (salary.min, salary.max, salary.unit, salary.raw) == (650, None, None, "$650+")
    assert parse_salary("ab 3.000 € brutto im Monat").max is None
    assert parse_salary("€4,000–€6,000/month").max == 6000
    # every amount must sit in the brackets for them to be the salary's words
    mixed = parse_salary("from €3,417 gross (€2,746 net) to €4,618 gross")
    assert mixed.raw.startswith("from €3,417")


# A software house's pages (hold-out 4's primemodule) and a research firm's (hold-out 69's datadiggers), read with
# the filter learned on their other pages (wave 3, fifteenth stop): the page alone makes a heading of the site's
# template the title ("Recruitment process", a block on every posting; "Equal", a banner's), where the posting's own
# heading is an h2. One page cannot tell; the learned filter can: it removes that block as template on every page.
# Fails on the code before (commit 5317ca3).

def _template_heading(title: str) -> str:
    return (f"<html><head><title>{title} | Acme</title></head><body><header><nav><a href='/'>Home</a> "
            "<a href='/services'>Services</a> <a href='/careers'>Careers</a></nav></header><div class='process'>"
            "<h1>Recruitment process</h1><ol><li>Talk with us</li><li>Technical task</li><li>Meet the team</li></ol>"
            f"</div><main><h2>We are hiring {title}</h2>{TEXT}<h3>Requirements</h3><ul><li>Good Python skills</li>"
            "</ul></main><footer><p>© 2024 Acme</p></footer></body></html>")


def test_a_title_the_learned_filter_removed_as_site_template_gives_way_to_the_pages_own_heading():
    from gigflow.adapters.page import page_jobs
    from gigflow.documents import prepare_html
    from gigflow.noise.learn.classifier import RulesClassifier
    from gigflow.noise.learn.learner import learn_noise_filter
    from gigflow.noise.learn.settings import NoiseSettings
    from gigflow.noise.learn.training import TrainingPage

    titles = ["Backend Developer", "Frontend Developer", "QA Engineer", "Data Engineer"]
    pages = [TrainingPage(url=f"https://acme.example/careers/{k}/", body=_template_heading(t).encode())
             for k, t in enumerate(titles)]
    learned = learn_noise_filter(pages[1:], None, RulesClassifier(NoiseSettings()), config_hash="h")
    body, url = pages[0].body, pages[0].url
    result = extract(body, url=url, content_type="text/html")
    assert result.jobs[0].title == "Recruitment process"  # what the page alone gives
    job = page_jobs(result, prepare_html(body, url, noise_filter=learned.filter))[0]
    assert job.title == "We are hiring Backend Developer"
    assert job.evidence["title"].method == "prepared"
    # without a filter (nothing learned yet) the page's reading stands
    assert page_jobs(result, prepare_html(body, url))[0].title == "Recruitment process"


# Hold-out 89's comnovo, tried as a new user (wave 3, fifteenth stop): a job plugin writes "baseSalary":
# {"currency": "EUR", "value": {"value": "", "unitText": ""}} on every posting; the record's salary was that JSON.
# Fails on the code before (commit 5317ca3).

def test_a_json_ld_salary_without_an_amount_or_words_is_no_salary():
    import json

    def posting(value) -> str:
        data = {"@context": "https://schema.org/", "@type": "JobPosting", "title": "Product Owner",
                "datePosted": "2022-09-27", "hiringOrganization": {"@type": "Organization", "name": "Comnovo"},
                "baseSalary": {"@type": "MonetaryAmount", "currency": "EUR",
                               "value": {"@type": "QuantitativeValue", "value": value, "unitText": ""}}}
        return (f"<html><head><script type='application/ld+json'>{json.dumps(data)}</script></head><body>"
                f"<h1>Product Owner</h1>{TEXT}</body></html>")

    assert job_of(posting("")).salary is None
    assert job_of(posting("According to the collective agreement")).salary is not None
    assert job_of(posting("52000")).salary.min == 52000


def test_guard_a_json_ld_salary_given_as_a_string_of_figures_is_not_empty():
    import json

    data = {"@context": "https://schema.org/", "@type": "JobPosting", "title": "Full Stack Engineer",
            "datePosted": "2025-01-10", "hiringOrganization": {"@type": "Organization", "name": "Mach Five"},
            "baseSalary": {"@type": "MonetaryAmount", "currency": "USD",
                           "value": {"@type": "QuantitativeValue", "value": "$110,000 - $130,000"}}}
    page = (f"<html><head><script type='application/ld+json'>{json.dumps(data)}</script></head><body>"
            f"<h1>Full Stack Engineer</h1>{TEXT}</body></html>")
    assert "$110,000 - $130,000" in job_of(page).salary.raw


def _details_box(rows) -> str:
    # A labour agency's board (hold-out 102, Vietnamese): the posting's details as heading/value pairs.
    box = "".join(f"<h4>{label}</h4><p>{value}</p>" for label, value in rows)
    return (f"<html><head><title>Tuyển dụng công nhân KCN Quang Châu</title></head><body><main><article>"
            f"<h1>Tuyển dụng công nhân KCN Quang Châu</h1><p>Công ty cần tuyển 100 công nhân làm việc tại nhà máy, "
            f"làm ca ngày và ca đêm, được đào tạo tại chỗ.</p></article><div class='job-info'>{box}</div></main>"
            f"</body></html>")


def test_vietnamese_and_turkish_field_labels_name_the_records_fields():
    job = job_of(_details_box([("Mức thu nhập", "7tr - 15tr"), ("Loại hình công việc", "Toàn thời gian"),
                               ("Địa điểm làm việc", "Bắc Ninh"), ("Thời hạn nộp hồ sơ", "30/12/2025")]))
    assert job.employment_type == "Toàn thời gian"
    assert job.location == "Bắc Ninh"
    assert job.salary is not None and job.salary.raw == "7tr - 15tr"
    assert job.valid_through == "2025-12-30"
    job = job_of(_details_box([("Çalışma şekli", "Tam zamanlı"), ("Son başvuru tarihi", "30.12.2025")]))
    assert job.employment_type and job.valid_through is not None


def _timber_posting(opening: str) -> str:
    # A timber builder's career page (hold-out 111, Italian): no label, no address beside the title; the job's own
    # opening names the office it hires for, a small town no gazetteer of cities knows.
    return (f"<html><head><title>Offerta di lavoro - Magazziniere</title></head><body><div class='cover'><h1>"
            f"Magazziniere</h1></div><div class='section'><h3>{opening}</h3><p>Si richiede dimestichezza "
            f"nell'utilizzo di carrelli elevatori e precisione nel carico e scarico delle merci.</p></div></body></html>")


def test_the_office_the_jobs_opening_names_is_its_location():
    assert job_of(_timber_posting("Per la sede di Lomagna cerchiamo un magazziniere.")).location == "Lomagna"
    assert job_of(_timber_posting("Sede di Lomagna, risorsa neolaureata.")).location == "Lomagna"
    assert job_of(_timber_posting("Für unseren Standort in Bad Breisig suchen wir Verstärkung.")).location == \
        "Bad Breisig"
    # "our team" names no office, and a sentence without one leaves the location unknown
    assert job_of(_timber_posting("Join our team in Lomagna and grow with us.")).location is None


def _hero_posting(type_line: str) -> str:
    # A software firm's Jekyll site (hold-out 114): the page header's hero shows the title and, under it, the kind of
    # position; the posting's own heading repeats the title, with no facts line beside it.
    return ("<html><head><title>Graphic Designer | Acme</title></head><body><header><nav><a href='/'>Home</a> "
            "<a href='/careers/'>Careers</a></nav><section class='hero'><a href='/careers/openings/'>All openings</a>"
            f"<h2>Graphic Designer</h2><p>{type_line}</p></section></header><main><section><h2>Graphic Designer</h2>"
            f"<div><h3>Job Profile</h3>{TEXT}</div></section></main></body></html>")


def test_the_kind_of_position_under_a_heading_repeating_the_title_is_its_employment_type():
    job = job_of(_hero_posting("Internship"))
    assert job.employment_type == "Internship" and job.employment_types
    assert not job_of(_hero_posting("Lagos office")).employment_types
