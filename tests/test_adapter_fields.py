"""Fields on sites gigflow has never seen: SWDE dev pages, label/value forms in four languages, title by agreement,
the employer and location evidence chains, dates against the fetch time, ISO dates from feeds and ATS payloads,
JSON-LD against the visible page, and why a page gave no job."""

import csv
import importlib.util
import re
import sys
from datetime import datetime, timezone

import pytest

from gigflow.adapters import ExtractedJob, extract
from gigflow.adapters.text_patterns import normalise
from helpers import FIXTURES, ROOT, SHARED

SWDE = FIXTURES / "swde"
FETCHED = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _swde_rows():
    with open(SWDE / "truth.tsv", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _contain(value, truth) -> bool:
    value, truth = normalise(value or ""), normalise(truth)
    return bool(value) and (value in truth or truth in value)


@pytest.mark.parametrize("row", _swde_rows(), ids=lambda row: f"{row['site']}-{row['page']}")
def test_swde_dev_pages_give_title_employer_location_and_date(row):
    """2011 job boards: the h1 is the site's logo or the title is an h3, the facts sit in th/td tables or in
    `<em>Label:</em> value` lines, and "more jobs" lists offer other titles, places and dates."""
    body = (SWDE / row["site"] / f"{row['page']}.htm").read_bytes()
    url = re.search(rb'<base href="([^"]+)"', body).group(1).decode()
    result = extract(body, url=url, content_type="text/html", fetched_at=FETCHED)
    [job] = result.jobs
    assert result.parser_key == "generic-html"
    assert _contain(job.title, row["title"]) and _contain(job.employer, row["company"])
    assert _contain(job.location, row["location"])
    if row["date_posted"]:
        assert job.date_posted == datetime.strptime(row["date_posted"], "%B %d, %Y" if "," in row["date_posted"]
                                                    else "%m/%d/%Y").date().isoformat()
    for field in ("title", "employer", "location") + (("date_posted",) if row["date_posted"] else ()):
        assert job.evidence[field].snippet_or_path and 0 < job.evidence[field].confidence <= 0.85
    assert not [f for f in ExtractedJob.model_fields if getattr(job, f) and f not in job.evidence
                and f not in ("locations", "provenance", "raw", "evidence")]  # evidence on every field


LABEL_PAGES = {
    "nl": """<html><head><title>Vacature Heftruckchauffeur</title></head><body><main>
        <h1>Heftruckchauffeur</h1><dl><dt>Werkgever</dt><dd>Transport Peeters NV</dd>
        <dt>Standplaats</dt><dd>Geel</dd><dt>Geplaatst op</dt><dd>3 november 2026</dd></dl></main></body></html>""",
    "de": """<html><head><title>Lagerist (m/w/d)</title></head><body><div id="stelle">
        <h2>Lagerist (m/w/d)</h2><table><tr><th>Arbeitgeber</th><td>Müller Logistik GmbH</td></tr>
        <tr><th>Arbeitsort:</th><td>Hamburg</td></tr><tr><td>Veröffentlicht am</td><td>vor 2 Tagen</td></tr>
        </table></div></body></html>""",
    "fr": """<html><head><title>Soudeur H/F</title></head><body><div class="offre"><h3>Soudeur H/F</h3>
        <p>Entreprise : Ateliers Dubois SA</p><p><span>Lieu de travail</span><span>Lyon</span></p>
        <p><b>Date de publication :</b> il y a 5 jours</p></div></body></html>""",
    "en": """<html><head><title>Night Porter - Harbour Hotel</title></head><body><div class="posting">
        <h1>Night Porter</h1><ul><li><strong>Company:</strong> Harbour Hotel Ltd</li>
        <li><strong>Job location</strong>: Plymouth</li><li><em>Posted:</em> 11/02/2026</li></ul>
        </div></body></html>""",
}
LABEL_FACTS = {"nl": ("Heftruckchauffeur", "Transport Peeters NV", "Geel", "2026-11-03"),
               "de": ("Lagerist (m/w/d)", "Müller Logistik GmbH", "Hamburg", "2026-11-29"),
               "fr": ("Soudeur H/F", "Ateliers Dubois SA", "Lyon", "2026-11-26"),
               "en": ("Night Porter", "Harbour Hotel Ltd", "Plymouth", "2026-11-02")}


@pytest.mark.parametrize("language", sorted(LABEL_PAGES))
def test_label_value_structures_in_any_form_and_language(language):
    job = extract(LABEL_PAGES[language].encode(), url=f"https://jobs.{language}.example/1", fetched_at=FETCHED).jobs[0]
    title, employer, location, posted = LABEL_FACTS[language]
    assert (job.title, job.employer, job.location) == (title, employer, location)
    assert job.evidence["employer"].method == job.evidence["location"].method == "label"
    assert job.date_posted == posted and job.evidence["date_posted"].method == "label"


def test_title_by_agreement_beats_a_logo_h1_and_section_headings():
    page = b"""<html><head><title>Careers - Pipe Fitter - Norland Energy - Aberdeen - JobsBoard</title></head>
    <body><div id="top"><h1>JobsBoard</h1></div><div class="col"><h2>Job Overview</h2>
    <h4>Pipe Fitter</h4><h5>Norland Energy</h5><h6>Aberdeen, United Kingdom</h6>
    <h2>Similar jobs</h2><h3><a href="/job/2">Welder</a></h3><h3><a href="/job/3">Rigger</a></h3>
    <h3><a href="/job/4">Scaffolder</a></h3></div></body></html>"""
    job = extract(page, url="https://www.jobsboard.example/job/1", fetched_at=FETCHED).jobs[0]
    assert job.title == "Pipe Fitter" and "= <title>" in job.evidence["title"].snippet_or_path
    assert job.employer == "Norland Energy" and job.location == "Aberdeen, United Kingdom"
    assert job.evidence["location"].method == "gazetteer"


def test_a_javascript_shell_keeps_the_title_both_document_titles_carry():
    shell = b"""<html><head><title>Software Support Specialist | Amdocs</title>
    <meta property="og:title" content="Software Support Specialist | Amdocs"></head><body><div id="app"></div>
    </body></html>"""
    job = extract(shell, url="https://careers.amdocs.example/job/1").jobs[0]
    assert (job.title, job.employer) == ("Software Support Specialist", "Amdocs")


@pytest.mark.parametrize("page, employer, method", [
    (b"<html><head><title>Welder at Acme Steel | Jobs</title></head><body><h1>Welder</h1></body></html>",
     "Acme Steel", "text-pattern"),
    (b"<html><head><title>Lasser</title><meta property='og:site_name' content='Bakkerij Jansen'></head>"
     b"<body><h1>Lasser</h1></body></html>", "Bakkerij Jansen", "meta"),
    (b"<html><body><div id='brand'><img class='site-logo' src='/l.png' alt='Greenleaf Foods logo'></div>"
     b"<h1>Picker</h1></body></html>", "Greenleaf Foods", "css"),
    (b"<html><body><h1>Driver</h1><footer><p>\xc2\xa9 2026 Delta Freight BV. All rights reserved.</p></footer>"
     b"</body></html>", "Delta Freight BV", "text-pattern"),
])
def test_employer_evidence_beyond_labels(page, employer, method):
    job = extract(page, url="https://x.example/jobs/7").jobs[0]
    assert job.employer == employer and job.evidence["employer"].method == method


def test_the_configured_company_is_the_last_resort_with_its_own_method():
    page = b"<html><body><main><h1>Cleaner</h1><p>Evening shifts.</p></main></body></html>"
    assert extract(page, url="https://x.example/j/1").jobs[0].employer is None
    job = extract(page, url="https://x.example/j/1", company="Sparkle Services").jobs[0]
    assert job.employer == "Sparkle Services" and job.evidence["employer"].method == "config"
    assert job.evidence["employer"].confidence < job.evidence["title"].confidence


def test_locations_from_address_markup_and_not_from_words_that_are_no_places():
    page = b"""<html><body><h1>Baker</h1><p>Information Technology</p>
    <address>Kerkstraat 1, 2440 Geel, Belgium</address></body></html>"""
    job = extract(page, url="https://x.example/j/2").jobs[0]
    assert job.location == "Kerkstraat 1, 2440 Geel, Belgium" and "address" in job.evidence["location"].snippet_or_path
    nowhere = b"<html><body><h1>Baker</h1><h2>Information Technology</h2></body></html>"
    assert extract(nowhere, url="https://x.example/j/3").jobs[0].location is None


def test_relative_dates_are_read_against_the_fetch_time_and_never_guessed_without_it():
    page = b"<html><body><h1>Chef</h1><p>Posted 3 days ago</p></body></html>"
    assert extract(page, url="https://x.example/j/4", fetched_at=FETCHED).jobs[0].date_posted == "2026-11-28"
    assert extract(page, url="https://x.example/j/4").jobs[0].date_posted is None


@pytest.mark.parametrize("text, day", [("Posted by Acme Corp on June 3, 2010", "2010-06-03"),
                                       ("Veröffentlicht am 03.11.2026", "2026-11-03"),
                                       ("Date posted: 11/12/2010 (19 days ago)", "2010-11-12")])
def test_a_posting_date_is_found_inside_the_words_around_it(text, day):
    page = f"<html><body><h1>Chef</h1><p>{text}</p></body></html>".encode()
    assert extract(page, url="https://x.example/j/5", fetched_at=FETCHED).jobs[0].date_posted == day


def test_feed_and_ats_dates_leave_as_iso_8601_with_the_source_text_kept():
    feed = b"""<?xml version="1.0"?><source><publisher>Board</publisher><job><title>Nurse</title>
    <url>https://board.example/j/1</url><company>Care NV</company><date>Mon, 30 Nov 2026 09:00:00 GMT</date>
    </job></source>"""
    [job] = extract(feed, url="https://board.example/feed.xml", content_type="application/xml").jobs
    assert job.date_posted == "2026-11-30T09:00:00+00:00"
    assert job.raw["date_posted_text"] == "Mon, 30 Nov 2026 09:00:00 GMT"
    payload = (FIXTURES / "adapters" / "ats" / "recruitee-radishlab" / "input.json").read_bytes()
    jobs = extract(payload, url="https://radishlab.recruitee.com/api/offers/", parser_key="recruitee").jobs
    assert jobs and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", j.date_posted) for j in jobs)


def _jsonld_page(posting: str, body: str) -> bytes:
    return (f'<html><head><script type="application/ld+json">{posting}</script></head>'
            f"<body><h1>Electrician</h1>{body}</body></html>").encode()


def test_jsonld_that_points_apply_at_the_page_yields_to_the_pages_external_apply_link():
    page = _jsonld_page('{"@type": "JobPosting", "title": "Electrician", "url": "https://acme.example/jobs/9",'
                        ' "hiringOrganization": {"name": "Acme"}, "datePosted": "2026-11-20",'
                        ' "baseSalary": {"@type": "MonetaryAmount", "currency": "EUR"}}',
                        '<p>Salary: €3.000 - €3.600 per month</p><a href="https://ats.example/apply/9">Apply now</a>')
    result = extract(page, url="https://acme.example/jobs/9", fetched_at=FETCHED)
    [job] = result.jobs
    assert result.parser_key == "jsonld" and job.apply_url == "https://ats.example/apply/9"
    assert "https://acme.example/jobs/9" in job.evidence["apply_url"].snippet_or_path  # both recorded
    assert job.salary.min == 3000 and job.salary.currency == "EUR" and "no amount" in job.evidence["salary"].snippet_or_path
    assert set(job.raw["disagreements"]) == {"apply_url", "salary"}
    assert result.confidence < 0.95 and job.evidence["apply_url"].confidence <= 0.6


def test_a_jsonld_date_after_the_fetch_yields_to_the_visible_one():
    posting = ('{"@type": "JobPosting", "title": "Electrician", "hiringOrganization": "Acme",'
               ' "datePosted": "2027-05-01"}')
    job = extract(_jsonld_page(posting, "<dl><dt>Posted</dt><dd>2026-11-25</dd></dl>"),
                  url="https://acme.example/jobs/10", fetched_at=FETCHED).jobs[0]
    assert job.date_posted == "2026-11-25" and job.raw["disagreements"]["date_posted"]["jsonld"] == "2027-05-01"
    plausible = posting.replace("2027-05-01", "2026-11-20")
    job = extract(_jsonld_page(plausible, "<dl><dt>Posted</dt><dd>2026-11-25</dd></dl>"),
                  url="https://acme.example/jobs/10", fetched_at=FETCHED).jobs[0]
    assert job.date_posted == "2026-11-20" and "kept JSON-LD" in job.evidence["date_posted"].snippet_or_path


def test_a_page_without_a_title_candidate_says_why_and_names_the_best_rejected():
    page = b"""<html><head><title>Jobs | Search | Acme</title></head><body><header><h1>Acme</h1></header>
    <h2>Job Overview</h2><h2>Requirements</h2></body></html>"""
    result = extract(page, url="https://www.acme.example/jobs/1")
    assert result.jobs == []
    [why] = [w for w in result.warnings if "no title candidate" in w]
    assert "best rejected" in why and "'Job Overview'" in why


def _fields_bench():
    spec = importlib.util.spec_from_file_location("fields_bench", ROOT / "bench" / "fields_bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_swde_dev_set_keeps_every_field_rate_above_its_floor():
    """The bench's own scoring over every SWDE dev page (two sites, about twenty pages each, spread over the
    sites' page ranges): the rates stay at or above the held-out goals (title 90%, employer and location 75%,
    date posted 60%)."""
    bench = _fields_bench()
    pages = bench.swde_pages(SWDE)
    assert {page.name.split("/")[0] for page in pages} == {"jobtarget", "job"} and len(pages) >= 18
    score = bench.score(pages, bench.gigflow_fields)
    rates = {name: score.hits[name] / score.counted[name] for name in bench.FIELDS}
    print(rates, score.misses)
    floors = {"title": 0.9, "employer": 0.75, "location": 0.75, "date_posted": 0.6}
    assert all(rates[name] >= floors[name] for name in bench.FIELDS), (rates, score.misses)


@pytest.mark.skipif(not (SHARED / "corpus" / "listings").is_dir(), reason="needs ../shared/corpus")
def test_corpus_listings_rarely_read_as_one_job_while_every_detail_page_keeps_one():
    bench = _fields_bench()
    listings, total = bench.job_pages(SHARED / "corpus", "listings", True)
    detail, detail_total = bench.job_pages(SHARED / "corpus", "html", False)
    assert listings <= 0.3 * total and detail == detail_total, (listings, total, detail, detail_total)


def test_a_labelled_title_inside_a_paragraph_beats_a_labelled_date_heading():
    """No h1 and no document title: "Job Title: ..." at the head of the description is the title; an h2 that is
    itself "Post date: 12/06" (a list of other jobs) is a fact with its label, never a title."""
    page = b"""<html><body><div class="main"><h4 class="co"><em>Company:</em> Brightwater Labs<br/>
    <span><em>Location:</em> Leeds, England</span></h4>
    <blockquote><p> Job Title: Data Steward <br/>Profession: Data <br/>Our team needs a steward.</p></blockquote>
    <table><tr><td><div><h2 class="pd">Post date: <em>12/06</em></h2></div>
    <h2 class="jt"><a href="/jobs/9">Night Nurse</a></h2><h4>Ward Health</h4></td></tr></table></div></body></html>"""
    job = extract(page, url="https://board.example/jobs/7").jobs[0]
    assert job.title == "Data Steward" and job.evidence["title"].snippet_or_path.endswith("[label]")


def test_a_partly_known_place_beside_the_title_counts_when_the_document_title_repeats_it():
    """"Bitola, Macedonia, Macedonia": the gazetteer knows the city but not the country's old name; the document
    title carrying "Bitola" is the second piece of evidence."""
    page = b"""<html><head><title>Job Search - Field Nurse - Red Cross - Bitola,  Macedonia - Board</title></head>
    <body><div id="job"><h3><span>Field Nurse</span></h3><h4><span>Red Cross</span></h4>
    <h5><span> Bitola, Macedonia, Macedonia </span></h5></div></body></html>"""
    job = extract(page, url="https://board.example/job?id=3").jobs[0]
    assert (job.title, job.location) == ("Field Nurse", "Bitola, Macedonia, Macedonia")
    assert "in <title>" in job.evidence["location"].snippet_or_path


LISTING = """<html><head><title>Careers | Acme Robotics</title></head><body>
<div class="hero"><h1>Find your calling</h1></div><h2>About Acme Robotics</h2><h2>Open roles</h2>
<ul class="roles">{items}</ul><section><h2>Our culture</h2><p>We build robots.</p></section>
<table><thead><tr><th>Position</th><th>Work model</th></tr></thead></table>
<footer><h2>Acme Robotics</h2><p>&copy; 2026 Acme Robotics. All rights reserved.</p></footer></body></html>"""
ROLES = ("Robot Welder", "Field Service Engineer", "Embedded Software Engineer", "Warehouse Team Lead",
         "Quality Inspector", "Sales Engineer Benelux")


def test_a_listing_of_linked_roles_yields_no_pseudo_job_but_a_detail_page_with_similar_jobs_keeps_its_title():
    items = "".join(f'<li class="role"><a href="/jobs/{n}">{role}</a><span>Geel</span></li>'
                    for n, role in enumerate(ROLES))
    result = extract(LISTING.format(items=items).encode(), url="https://acme.example/careers")
    assert result.jobs == [] and any("no recognisable title" in w for w in result.warnings)
    detail = f"""<html><head><title>Acme Robotics</title></head><body><h1>Robot Welder</h1>
    <p>Location: Geel</p><h2>Similar jobs</h2><ul class="roles">{items}</ul></body></html>"""
    assert extract(detail.encode(), url="https://acme.example/jobs/0").jobs[0].title == "Robot Welder"


@pytest.mark.parametrize("title", ["Systems/Software Engr VI", "Over the Road Truck Driver",
                                   "Field Engineer (US Citizenship Required)",
                                   "Aircraft Mechanic — Safety Starts With Your Hands"])
def test_titles_that_only_look_like_slogans_or_about_headings_stay_titles(title):
    page = f"""<html><head><title>Jobs | Board</title></head><body><h1>{title}</h1><p>Location: Tulsa, OK</p>
    <h2>Similar jobs</h2><ul>{"".join(f'<li class="job"><a href="/jobs/{n}">Senior Role number {n}</a></li>'
                                      for n in range(6))}</ul></body></html>"""
    assert extract(page.encode(), url="https://board.example/jobs/77").jobs[0].title == title
