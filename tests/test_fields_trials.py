"""Job records as a new user met them on an unseen site (wave 3, ninth stop): a metering company's TYPO3 career
site (hold-out 23's kalo), crawled from 127.0.0.1 as the getting-started guide does (the public body's trial, its
status badge and section headings, is in tests/test_closed_vacancy.py). One synthetic page per class of error;
pure extraction through the whole chain; each behaviour test fails on the code before (commit e7506e8)."""

from __future__ import annotations

from gigflow.adapters import extract

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
