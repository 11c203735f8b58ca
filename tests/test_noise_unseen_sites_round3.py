"""Failure classes found in the third round of issue #23 (sites never seen), each on a synthetic site learned
with the rules classifier on three pages and applied to a fourth it never saw.

D. The job's title inside a word of the site's own text: a footer slogan "... for Data Engineers" is the same on
   every page, also on the page of the job "Data Engineer". The title counts as a self-reference in text only as
   whole words, so the footer keeps its learned signature there and goes.
E. A details sidebar beside the job (an <aside> of label/value rows): only what is this job's stays. Its constant
   heading and a row whose value is the same on every page and states no fact ("Source: Company site") go; rows
   whose values vary (location), a constant row stating a fact in digits or words (salary band, "Full-time") and a
   constant row naming the employer (a one-employer career site) stay.
F. On a job board, a sidebar whose only change between pages is in its numbers ("Listed 14 May 2026", "Up to
   $140K a year") has one signature on every page (digits count as one) and was removed as board furniture:
   a sidebar whose changing numbers are dates or amounts is this job's and stays.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

JOBS = [  # slug, title, city
    ("platform-architect-101", "Platform Architect", "Denver"),
    ("quant-developer-202", "Quant Developer", "Boston"),
    ("risk-associate-303", "Risk Associate", "Austin"),
    ("data-engineer-404", "Data Engineer", "Chicago"),
]
ORIGIN = "https://jobs.example"


def learn_and_apply(page_html) -> tuple[str, object]:
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{job[0]}/", body=page_html(*job).encode()) for job in JOBS]
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    unseen = pages[3]
    return prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown, result.report


def test_d_the_title_inside_a_word_of_the_sites_slogan_is_not_the_page_naming_itself():
    def page(slug, title, city):
        return (f"<html><head><title>{title} | Engineer Board</title></head><body>"
                "<header><a href='/'>Engineer Board</a><a href='/jobs/'>Jobs</a><a href='/about/'>About</a></header>"
                f"<main><article><h1>{title}</h1><p>{city}</p><h2>The role</h2><p>You will own the "
                f"{title.lower()} work in {city}; reference {slug[-3:]}.</p></article></main>"
                "<footer><p>Engineer Board is the community board for Data Engineers, Quant Developers and "
                "Platform Architects who like clean pipelines.</p><a href='/about/'>About us</a>"
                "<a href='/privacy/'>Privacy Policy</a></footer></body></html>")

    markdown, report = learn_and_apply(page)
    assert "community board" not in markdown and "Privacy Policy" not in markdown
    for fact in ("Data Engineer", "Chicago", "The role"):
        assert fact in markdown, fact
    assert report.facts_after == report.facts_before


def test_e_a_details_sidebar_keeps_only_this_jobs_rows():
    def page(slug, title, city):
        return (f"<html><head><title>{title} | Careers</title></head><body>"
                "<header><a href='/'>Nordwind Careers</a><a href='/jobs/'>Jobs</a><a href='/team/'>Team</a></header>"
                f"<main><div class='layout'><article><h1>{title}</h1><h2>The role</h2><p>You will own the "
                f"{title.lower()} work in {city}; reference {slug[-3:]}.</p></article>"
                "<aside><div class='card'><h3>Job overview</h3>"
                "<div class='row'><span>Company</span> <span>Nordwind</span></div>"
                f"<div class='row'><span>Location</span> <span>{city}</span></div>"
                "<div class='row'><span>Schedule</span> <span>Full-time</span></div>"
                "<div class='row'><span>Pay band</span> <span>B2 (€4,000-€5,000)</span></div>"
                "<div class='row'><span>Listed via</span> <span>Company site</span></div>"
                "</div></aside></div></main>"
                "<footer><a href='/privacy/'>Privacy Policy</a><a href='/imprint/'>Imprint</a></footer>"
                "</body></html>")

    markdown, report = learn_and_apply(page)
    assert "Job overview" not in markdown and "Listed via" not in markdown and "Company site" not in markdown
    for fact in ("Data Engineer", "Company Nordwind", "Location Chicago", "Schedule Full-time",
                 "Pay band B2 (€4,000-€5,000)", "The role"):
        assert fact in markdown, fact
    assert report.facts_after == report.facts_before


BOARD_EMPLOYERS = {"Platform Architect": "Kestrel Ltd", "Quant Developer": "Oriel Inc", "Risk Associate": "Brant LLC",
                   "Data Engineer": "Velo GmbH"}


def test_f_on_a_board_a_sidebar_differing_only_in_numbers_is_this_jobs():
    employers = BOARD_EMPLOYERS

    def page(slug, title, city):
        day = 10 + int(slug[-3])
        return (f"<html><head><title>{title} | Board</title><script type='application/ld+json'>"
                f'{{"@context": "https://schema.org", "@type": "JobPosting", "title": "{title}", '
                f'"hiringOrganization": {{"@type": "Organization", "name": "{employers[title]}"}}}}</script>'
                "</head><body><header><a href='/'>Board</a><a href='/jobs/'>Jobs</a></header>"
                f"<main><div class='layout'><article><h1>{title}</h1><h2>The role</h2><p>You will own the "
                f"{title.lower()} work in {city} for {employers[title]}; reference {slug[-3:]}.</p></article>"
                f"<aside><div class='card'><h3>At a glance</h3><p>Listed {day} May 2026</p>"
                f"<p>Up to ${day * 10}K a year</p></div></aside></div></main>"
                "<footer><a href='/privacy/'>Privacy Policy</a><a href='/imprint/'>Imprint</a></footer>"
                "</body></html>")

    markdown, report = learn_and_apply(page)
    for fact in ("Data Engineer", "Listed 14 May 2026", "Up to $140K a year", "The role"):
        assert fact in markdown, fact
    assert "Privacy Policy" not in markdown
    assert report.facts_after == report.facts_before
