"""Every rule of the generic adapter's evidence tables on a page of its own: the title's scoring rules and vetoes
(gigflow.adapters.generic.title_rules), the employer's and the location's sources (EMPLOYER_SOURCES,
LOCATION_SOURCES). Each fixture is a minimal page where its rule applies; the test checks the rule applies there
with its weight (or confidence) and shows its mark in the evidence, and that every rule of a table has a fixture."""

from __future__ import annotations

import pytest

from gigflow.adapters.generic.employer import EMPLOYER_SOURCES
from gigflow.adapters.generic.location import LOCATION_SOURCES
from gigflow.adapters.generic.page import read_page
from gigflow.adapters.generic.rules import vetoed
from gigflow.adapters.generic.title_rules import EVIDENCE, LISTING_VETO, PROMINENCE, RIVAL_H1, VETOES
from gigflow.adapters.types import ExtractionContext

URL = "https://jobs.example/vacancies/42"
LONG_TITLE = "Senior Welder for heavy steel construction projects in the north | Acme"


def page_of(body: str, title: str | None = None, head: str = "", company: str | None = None):
    html = f"<html><head>{f'<title>{title}</title>' if title else ''}{head}</head><body>{body}</body></html>"
    page, warnings = read_page(html.encode(), URL, ExtractionContext(company=company))
    assert page is not None, warnings
    return page


# (rule, its weight, page body, document title, the candidate's text)
TITLE_FIXTURES = [
    ("h1 heading", 3.0, "<h1>Welder</h1>", None, "Welder"),
    ("h2 heading", 2.0, "<h2>Welder</h2>", None, "Welder"),
    ("h3 heading", 1.6, "<h3>Welder</h3>", None, "Welder"),
    ("h4 heading", 1.3, "<h4>Welder</h4>", None, "Welder"),
    ("h5 heading", 1.2, "<h5>Welder</h5>", None, "Welder"),
    ("h6 heading", 1.1, "<h6>Welder</h6>", None, "Welder"),
    ("title-classed element", 2.2, '<div class="job-title">Welder</div>', None, "Welder"),
    ("plain text", 0.5, "<p>Welder</p>", "Welder | Acme", "Welder"),
    ("heading repeats the document title", 4.0, "<h1>Welder</h1>", "Welder | Acme", "Welder"),
    ("heading shares the document title's words", 3.0, "<h1>Senior Welder for the Night Shift</h1>",
     "Senior Welder Night Shift | Acme", "Senior Welder for the Night Shift"),
    ("heading is a piece of a title part", 2.0, "<h1>Senior Welder</h1>", LONG_TITLE, "Senior Welder"),
    ("text repeats the document title", 2.5, "<p>Welder</p>", "Welder | Acme", "Welder"),
    ("text is a piece of a title part", 2.0, "<p>Senior Welder</p>", LONG_TITLE, "Senior Welder"),
    ("site section named in the navigation", -4.0,
     '<nav><a href="/tour">Warehouse Tour</a></nav><h2>Warehouse Tour</h2>', None, "Warehouse Tour"),
    ("labelled title", 3.0, "<h2>Welder</h2><p>Job title: Welder</p>", None, "Welder"),
    ("in the site's chrome", -3.0, "<header><h2>Welder</h2></header>", None, "Welder"),
    ("names the site or its owner", -6.0, "<h1>Acme Works</h1>",
     None, "Acme Works"),
    ("announces who hires", -5.0, "<h1>Acme recrute</h1>", None, "Acme recrute"),
    ("section heading", -5.0, "<h2>Requirements</h2>", None, "Requirements"),
    ("widget heading", -4.0, "<h3>Newsletter</h3>", None, "Newsletter"),
    ("ends with a colon", -3.0, "<h2>Welder wanted:</h2>", None, "Welder wanted:"),
    ("labels another field", -4.0, "<h3>Location: Geel</h3>", None, "Location: Geel"),
    ("links to another page", -2.5, '<h2><a href="/vacancies/7">Welder</a></h2>', None, "Welder"),
    ("one of many alike links", -2.5, '<h3 class="teaser"><a href="/v/1">Welder</a></h3>'
     '<h3 class="teaser"><a href="/v/2">Painter</a></h3><h3 class="teaser"><a href="/v/3">Driver</a></h3>',
     None, "Welder"),
    ("inside a list of alike items", -3.0, "<ul><li><h3>Welder</h3></li><li><h3>Painter</h3></li>"
     "<li><h3>Driver</h3></li></ul>", None, "Welder"),
    ("long text", -1.0, "<h1>Senior structural steel welder and fabricator for heavy industrial construction "
     "projects across the region</h1>", None, "Senior structural steel welder and fabricator for heavy industrial "
     "construction projects across the region"),
    ("names a place", -3.0, "<h2>Berlin</h2>", None, "Berlin"),
    ("a sentence beside a shorter h1", -1.5, "<h1>Welder</h1><h1>Build the future of steel construction with a "
     "team that cares about craft</h1>", None, "Build the future of steel construction with a team that cares "
     "about craft"),
    ("a section among h1s", -1.5, "<h1>Welder (m/f)</h1><div><h1 id='context'>Context</h1><p>x</p><h1 id='tasks'>"
     "Tasks</h1><p>y</p><h1 id='skills'>Skills</h1></div>", None, "Context"),
]
TITLE_RULES = {rule.name: rule for rule in PROMINENCE + EVIDENCE + RIVAL_H1}


def test_every_title_rule_has_a_fixture():
    assert sorted(name for name, *_ in TITLE_FIXTURES) == sorted(TITLE_RULES)


@pytest.mark.parametrize("name, weight, body, title, text", TITLE_FIXTURES, ids=[f[0] for f in TITLE_FIXTURES])
def test_title_rule_applies_with_its_weight(name, weight, body, title, text):
    head = '<meta property="og:site_name" content="Acme Works">' if name == "names the site or its owner" else ""
    candidates = {c.text: c for c in page_of(body, title, head).title_candidates()}
    candidate = candidates[text]
    rule = TITLE_RULES[name]
    assert rule in candidate.rules
    assert rule.weight == weight and rule.reason
    assert rule.marks in candidate.source
    # The score is the rules' weights and nothing else.
    assert candidate.score == pytest.approx(sum(r.weight for r in candidate.rules))


def test_a_bare_heading_gets_its_prominence_only():
    candidate = page_of("<h1>Welder</h1>").title_candidates()[0]
    assert [r.name for r in candidate.rules] == ["h1 heading"]
    assert (candidate.text, candidate.score, candidate.source) == ("Welder", 3.0, "h1")


def test_rule_marks_read_in_the_evidence():
    page = page_of("<h2>Welder</h2><p>Job title: Welder</p>", "Welder | Acme")
    job = page.job()
    assert job.title == "Welder"
    assert job.evidence["title"].snippet_or_path == "/html/body/h2 [h2 = <title> = label]"


# (veto, page body, document title, the element's text)
VETO_FIXTURES = [
    ("caption of a control", '<button><span class="job-title">Welder</span></button>', None, "Welder"),
    ("hidden", '<h2 style="display: none">Welder</h2>', None, "Welder"),
    ("quotation", "<h2>\u201cBest workshop I have known\u201d</h2>", None, "\u201cBest workshop I have known\u201d"),
    ("in the footer", "<footer><h2>Welder</h2></footer>", None, "Welder"),
    ("slogan", "<h2>Join us!</h2>", None, "Join us!"),
    ("about heading", "<h2>About Acme</h2>", None, "About Acme"),
    ("apply button words", "<h2>Apply now</h2>", None, "Apply now"),
    ("another field's value", "<h2>Acme GmbH</h2><p>Company: Acme GmbH</p>", None, "Acme GmbH"),
    ("another field's element", '<h2 class="company-name">Acme</h2>', None, "Acme"),
    ("names a listing", "<h2>Open positions</h2>", None, "Open positions"),
    ("badge", '<h1>Welder</h1><p>Position: <span class="badge badge-blue">CRAFT</span></p>', None, "CRAFT"),
]


def test_every_title_veto_has_a_fixture():
    assert sorted(name for name, *_ in VETO_FIXTURES) == sorted(v.name for v in VETOES + (LISTING_VETO,))


@pytest.mark.parametrize("name, body, title, text", VETO_FIXTURES, ids=[f[0] for f in VETO_FIXTURES])
def test_title_veto_keeps_the_element_out(name, body, title, text):
    page = page_of(body, title)
    context = page._title_context()
    reading = next(r for r in page._title_readings(context) if r.text == text)
    veto = vetoed(reading, context, VETOES + (LISTING_VETO,))
    assert veto is not None and veto.name == name and veto.reason
    assert text not in {c.text for c in page.title_candidates()}


# (source, page body, document title, extra head, configured company, the value found)
EMPLOYER_FIXTURES = [
    ("microdata", '<h1>Welder</h1><span itemprop="hiringOrganization">Acme GmbH</span>', None, "", None, "Acme GmbH"),
    ("label", "<h1>Welder</h1><p>Company: Acme GmbH</p>", None, "", None, "Acme GmbH"),
    ("class naming the employer", '<h1>Welder</h1><div class="company-name">Acme GmbH</div>', None, "", None,
     "Acme GmbH"),
    ("X hiring in the document title", "<h1>Welder</h1>", None,
     '<meta property="og:title" content="Acme hiring Welder in Geel | Network">', None, "Acme"),
    ("careers at X in the document title", "<h1>Welder</h1>", "Welder | Careers at Acme", "", None, "Acme"),
    ("title at X", "<h1>Welder</h1>", "Welder at Acme", "", None, "Acme"),
    ("X hiring in a heading", "<h1>Acme recrute</h1><p>Welder</p>", None, "", None, "Acme"),
    ("website spelled by the title", "<h1>Acme Welder</h1><p><strong>Website</strong><br>"
     "<a href='https://acme.example/'>https://acme.example/</a></p>", None, "", None, "Acme"),
    ("posted by X beside the title", "<h1>Welder</h1><div>Posted by <a href='https://acme.example/'>Acme Works</a>"
     " on 23 Nov 2021</div>", None, "", None, "Acme Works"),
    ("beside the title in the document title", "<h1>Welder</h1>", "Welder | Acme Industries", "", None,
     "Acme Industries"),
    ("heading beside the title", "<h1>Welder</h1><h2>Acme Industries</h2>", None, "", None, "Acme Industries"),
    ("organisation beside the title", "<h1>Welder</h1><p>Oakfield Primary Academy, Leeds</p>", None, "", None,
     "Oakfield Primary Academy"),
    ("facts line beside the title", "<h1>Welder</h1><p>Acme · Berlin · Full-time</p>", None, "", None, "Acme"),
    ("configured company", "<h1>Welder</h1>", None, "", "Configured Co", "Configured Co"),
    ("other half of the document title", "<h1>Welder</h1>", "Welder – Acme 24", "", None, "Acme 24"),
    ("site name", "<h1>Welder</h1>", None, '<meta property="og:site_name" content="Acme Works">', None,
     "Acme Works"),
    ("X careers in the document title", "<h1>Welder</h1>", "Acme Careers", "", None, "Acme"),
    ("description names the organisation", "<h1>Welder</h1>", None,
     '<meta name="description" content="Acme is a software company that builds welding robots.">', None, "Acme"),
    ("logo alt text", '<img class="logo" src="/logo.png" alt="Acme Works logo"><h1>Welder</h1>', None, "", None,
     "Acme Works"),
    ("copyright line", "<h1>Welder</h1><footer><p>© 2025 Acme Works. All rights reserved.</p></footer>", None, "",
     None, "Acme Works"),
]

# (source, page body, document title, the value found)
LOCATION_FIXTURES = [
    ("microdata", '<h1>Welder</h1><span itemprop="jobLocation">Geel</span>', None, "Geel"),
    ("label", "<h1>Welder</h1><p>Location: Geel</p>", None, "Geel"),
    ("class naming the location", '<h1>Welder</h1><div class="job-location">Geel</div>', None, "Geel"),
    ("address markup", "<h1>Welder</h1><div><p>Apply today.</p><address>Kerkstraat 1, Geel</address></div>", None,
     "Kerkstraat 1, Geel"),
    ("pin marker", "<h1>Welder</h1><div><p>Full-time.</p><p>📍 Geel</p></div>", None, "Geel"),
    ("in X in the document title", "<h1>Welder</h1>", "Welder Job in Geel | Network", "Geel"),
    ("place of the facts line", "<h1>Welder</h1><p>Acme · Geel · Full-time</p>", None, "Geel"),
    ("place line beside the title", "<h1>Welder</h1><p>Geel</p>", None, "Geel"),
    ("remote line beside the title", "<h1>Welder</h1><p>Anywhere</p>", None, "Anywhere"),
    ("line the document title repeats", "<h1>Welder</h1><p>Tetovo, Macedonia, Macedonia</p>", "Welder | Tetovo",
     "Tetovo, Macedonia, Macedonia"),
    ("office the job's text names", "<h1>Welder</h1><div><p>Wir bieten viel.</p><p>Für unseren Standort in Kleinstadt "
     "suchen wir einen Schweißer mit Erfahrung im Stahlbau und in der Montage.</p></div>", None, "Kleinstadt"),
    ("breadcrumb place", '<div class="breadcrumb"><a href="/">Jobs</a> › <a href="/de">Germany</a> › '
     '<a href="/de/berlin">Berlin</a></div><h1>Welder</h1>', None, "Berlin"),
    ("place part of the document title", "<h1>Welder</h1>", "Welder | Geel | Acme", "Geel"),
    ("place in brackets in the title", "<h1>Welder (Geel)</h1>", "Welder (Geel) | Acme", "Geel"),
    ("place at the title's end", "<h1>Welder in Geel</h1>", None, "Geel"),
    ("place in brackets in the document title", "<h1>Welder</h1>", "Welder (Geel)", "Geel"),
    ("place at the document title's end", "<h1>Welder</h1>", "Welder in Geel | Acme", "Geel"),
    ("work mode in microdata", '<h1>Welder</h1><span itemprop="jobLocation">On-site</span>', None, "On-site"),
    ("work mode in a label", "<h1>Welder</h1><p>Work location: In person</p>", None, "In person"),
    ("work mode in a class", '<h1>Welder</h1><div class="job-location">Office</div>', None, "Office"),
]


def winner(page, sources):
    """The first source of the table that finds a value on the page (the one the field comes from)."""
    return next((source for source in sources if source.find(page)), None)


def test_every_source_has_a_fixture():
    assert sorted(f[0] for f in EMPLOYER_FIXTURES) == sorted(s.name for s in EMPLOYER_SOURCES)
    assert sorted(f[0] for f in LOCATION_FIXTURES) == sorted(s.name for s in LOCATION_SOURCES)


@pytest.mark.parametrize("name, body, title, head, company, value", EMPLOYER_FIXTURES,
                         ids=[f[0] for f in EMPLOYER_FIXTURES])
def test_employer_source_gives_the_employer(name, body, title, head, company, value):
    page = page_of(body, title, head, company)
    job = page.job()
    assert job is not None
    source = winner(page, EMPLOYER_SOURCES)
    assert source is not None and source.name == name and source.reason
    assert job.employer == value
    evidence = job.evidence["employer"]
    assert (evidence.method, evidence.confidence) == (source.method, source.confidence)


@pytest.mark.parametrize("name, body, title, value", LOCATION_FIXTURES, ids=[f[0] for f in LOCATION_FIXTURES])
def test_location_source_gives_the_location(name, body, title, value):
    page = page_of(body, title)
    job = page.job()
    assert job is not None
    source = winner(page, LOCATION_SOURCES)
    assert source is not None and source.name == name and source.reason
    assert job.location == value
    evidence = job.evidence["location"]
    assert (evidence.method, evidence.confidence) == (source.method, source.confidence)


def test_a_place_in_brackets_leaves_the_title():
    job = page_of("<h1>Fahrkartenkontrolleur (Bremen)</h1>", "Fahrkartenkontrolleur (Bremen) | Acme").job()
    assert (job.title, job.location) == ("Fahrkartenkontrolleur", "Bremen")


def test_a_work_mode_gives_way_to_the_pages_place():
    job = page_of("<h1>Welder</h1><p>Geel</p><p>Work location: In person</p>").job()
    assert job.location == "Geel"
    assert job.evidence["location"].snippet_or_path.endswith("beside the title")
