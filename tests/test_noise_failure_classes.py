"""One synthetic site per failure class of issue #23, learned with the rules classifier on three pages and applied to
a fourth it never saw: the template goes, every job fact stays.

1. regions that differ only by the page itself (its URL in share and login links, a current-menu marker, a
   counter, a year);
2. board furniture: a multi-employer board's own address, phone and legal name are not a job's facts;
3. regions with controls (cookie banner, search box, newsletter sign-up, an apply modal's confirmation) are judged
   on their words; an application form's deadline and documents stay;
4. the job region guessed too wide: the page's one container also holds the footer;
5. repeated regions: the same share bar above and below the job, a notice shifting positions.
(6, a filter reaching unchanged stored pages, is tests/test_noise_reprepare.py.)
"""

from __future__ import annotations

import json

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

JOBS = [  # slug, title, employer, city, salary
    ("warehouse-lead-4411", "Warehouse Lead", "Brightwater Logistik GmbH", "Ghent", "€3,900 per month"),
    ("payroll-specialist-5522", "Payroll Specialist", "Kestrel Data UG", "Leuven", "€3,400 per month"),
    ("field-technician-6633", "Field Technician", "Tidewell Foods B.V.", "Antwerp", "€3,100 per month"),
    ("forklift-driver-7744", "Forklift Driver", "Harrow & Pike Ltd.", "Bruges", "€2,800 per month"),
]
ORIGIN = "https://jobs.example"


def url(slug: str) -> str:
    return f"{ORIGIN}/jobs/{slug}/"


def job_body(slug, title, employer, city, salary) -> str:
    return (f"<main><article><h1>{title}</h1><p class='meta'>{employer} · {city}</p>"
            f"<h2>Your tasks</h2><p>Lead the {title.lower()} work in {city}; {slug[-4:]} shifts planned.</p>"
            f"<p>Salary: {salary}</p></article></main>")


def learn_and_apply(page_html) -> tuple[str, object]:
    """Learn on the first three jobs' pages, prepare the fourth; returns its Markdown and the learning report."""
    pages = [TrainingPage(url=url(job[0]), body=page_html(*job).encode()) for job in JOBS]
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    unseen = pages[3]
    return prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown, result.report


def assert_job_facts(markdown: str) -> None:
    for fact in ("Forklift Driver", "Harrow & Pike Ltd.", "Bruges", "€2,800 per month", "Your tasks"):
        assert fact in markdown, fact


def test_1_regions_that_name_the_page_itself_are_one_template_region():
    def page(slug, title, employer, city, salary):
        current = JOBS.index(next(j for j in JOBS if j[0] == slug)) % 2  # the menu marks another item current
        menu = "".join(f"<li><a href='/{name}/'{' aria-current=page' if i == current else ''}>{name.title()}</a></li>"
                       for i, name in enumerate(("jobs", "companies")))
        return (f"<html><head><title>{title} | Jobs</title></head><body>"
                f"<header><nav><ul>{menu}</ul></nav>"
                f"<a href='/login?redirect=%2Fjobs%2F{slug}%2F'>Sign in to save this job</a>"
                f"<a href='https://twitter.com/intent/tweet?url={url(slug)}&text={title}'>Share on Twitter</a>"
                f"<a href='/de/jobs/{slug}/'>Deutsch</a></header>"
                f"{job_body(slug, title, employer, city, salary)}"
                f"<footer><p>{1200 + len(slug) * 7} open jobs · © {2024 + len(title) % 3} Jobs Example</p>"
                f"<a href='/about/'>About us</a></footer></body></html>")

    markdown, report = learn_and_apply(page)
    for gone in ("Sign in to save this job", "Share on Twitter", "Deutsch", "Companies", "open jobs", "About us"):
        assert gone not in markdown, gone
    assert_job_facts(markdown)
    assert report.facts_after == report.facts_before


def test_2_a_boards_own_address_phone_and_legal_name_are_not_job_facts():
    def page(slug, title, employer, city, salary):
        posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": title,
                   "hiringOrganization": {"@type": "Organization", "name": employer}}
        return (f"<html><head><script type='application/ld+json'>{json.dumps(posting)}</script></head><body>"
                f"{job_body(slug, title, employer, city, salary)}"
                "<footer><p>Jobs Example Media Ltd · 12 Harbour Street, London · +44 20 7946 0000</p>"
                "<p>Jobs Example is a registered trademark of Jobs Example Media Ltd.</p></footer></body></html>")

    markdown, _report = learn_and_apply(page)
    for gone in ("Harbour Street", "+44 20 7946 0000", "Jobs Example Media Ltd", "registered trademark"):
        assert gone not in markdown, gone
    assert_job_facts(markdown)


def test_3_regions_with_controls_are_judged_on_their_words_and_application_facts_stay():
    def page(slug, title, employer, city, salary):
        return ("<html><body>"
                "<div class='consent'><p>We use cookies to improve your experience.</p>"
                "<button>Accept all</button><button>Reject</button></div>"
                "<header><a href='/'>Jobs Example</a><form action='/search'><label for='q'>Search jobs</label>"
                "<input id='q' name='q' placeholder='Job title or keyword'><button>Search</button></form></header>"
                f"{job_body(slug, title, employer, city, salary)}"
                "<section class='apply'><h2>How to apply</h2><p>Send your CV and cover letter before 31 March 2027.</p>"
                "<form action='/apply'><input type='hidden' name='token' "
                f"value='{slug[::-1]}'><input name='email' placeholder='Your e-mail'><button>Send</button></form>"
                "</section>"
                "<div class='modal' role='dialog'><h2>Thank you!</h2><p>Your application has been received.</p>"
                "<button>Close</button></div>"
                "<aside><h3>Job alerts</h3><p>Get new jobs by e-mail every week.</p>"
                "<form action='/alerts'><input type='email' placeholder='you@example.com'><button>Subscribe</button>"
                "</form></aside></body></html>")

    markdown, _report = learn_and_apply(page)
    for gone in ("We use cookies", "Accept all", "Reject", "Search jobs", "Thank you!",
                 "Your application has been received", "Job alerts", "Subscribe"):
        assert gone not in markdown, gone
    assert "Send your CV and cover letter before 31 March 2027." in markdown
    assert_job_facts(markdown)
    assert markdown.lstrip().startswith("# Forklift Driver")  # the description starts with the job


def test_4_a_footer_inside_the_pages_one_container_is_still_a_footer():
    def page(slug, title, employer, city, salary):
        return ("<html><body><div class='wrap'>"
                f"<h1>{title}</h1><p class='sub'>{employer} · {city}</p><h2>Your tasks</h2>"
                f"<p>Lead the {title.lower()} work in {city}; {slug[-4:]} shifts planned.</p><p>Salary: {salary}</p>"
                "<footer><p>Jobs here are collected automatically from employers' sites. We are not the employer and "
                "take no applications.</p><a href='/'>All jobs on Jobs Example</a></footer>"
                "</div></body></html>")

    markdown, _report = learn_and_apply(page)
    assert "We are not the employer" not in markdown and "All jobs on Jobs Example" not in markdown
    assert_job_facts(markdown)


def test_5_repeated_and_shifting_regions_are_removed_wherever_they_stand():
    share = ("<div class='share'><a href='https://www.linkedin.com/share?u=x'>LinkedIn</a>"
             "<a href='https://www.facebook.com/sharer?u=x'>Facebook</a></div>")

    def page(slug, title, employer, city, salary):
        # A notice before the first bar on some pages shifts the bars' positions among their sibling divs.
        notice = "<div class='notice'>This posting is older than 30 days.</div>" if slug.startswith(
            ("payroll", "forklift")) else ""
        body = job_body(slug, title, employer, city, salary).replace("<article>", f"<article>{notice}{share}", 1)
        body = body.replace("</article>", f"{share}</article>", 1)
        return (f"<html><body>{body}<div class='related'><h3>Similar jobs</h3>"
                "<p>Browse more jobs like this one.</p></div></body></html>")

    markdown, _report = learn_and_apply(page)
    assert "LinkedIn" not in markdown and "Facebook" not in markdown
    assert_job_facts(markdown)
