"""Round 6 of issue #23: failure classes on development sites still below the main-content cleanup.

J. A second way to apply. A job header's "Apply Now" link was kept as an apply fact, while the same application
   is linked again from the job's own text ("Apply for this position"): a template region made of nothing but
   links whose targets the content links to on every sample states nothing the page loses; it goes, and the
   apply link stays where the content states it. Where the content does not link there, the header's link stays.
K. In-page tab lists. A job's sections shown as tabs (``role="tablist"``, each ``role="tab"`` showing a panel of
   the page) have labels that change with the job ("Responsibilities", "Experience & skills", "What would be a
   bonus"), so no template comparison learned them and they stayed as stray lines. They are a control, like a
   form's buttons: the list goes, the panels with the job's text stay; tabs that open other pages are judged
   as menu links.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://careers.example"
JOBS = [  # slug, title, application id
    ("platform-architect", "Platform Architect", "a1f3"),
    ("quant-developer", "Quant Developer", "b2e4"),
    ("risk-associate", "Risk Associate", "c3d5"),
    ("data-engineer", "Data Engineer", "d4c6"),
]


def learn(pages):
    return learn_noise_filter(pages, None, RulesClassifier(NoiseSettings()), config_hash="h")


def apply_page(slug, title, app, *, apply_in_content=True):
    apply_url = f"https://apply.ats.example/harbor/jobs/{app}/"
    bottom = (f"<section class='job-apply'><h2>Interested?</h2><p>Send us your application through our "
              f"portal.</p><a href='{apply_url}'>Apply for this position</a></section>" if apply_in_content else "")
    return (f"<html><head><title>{title} | Harbor Careers</title></head><body>"
            "<header class='site'><a href='/'>Harbor Careers</a> <a href='/jobs/'>All jobs</a></header>"
            f"<main><article><header class='job-header'><h1>{title}</h1><p>Denver · {slug}</p>"
            f"<div class='job-actions'><a href='{apply_url}'>Apply Now</a></div></header>"
            f"<section><h2>The role</h2><p>You will own the {title.lower()} work; a full-time position with a "
            f"salary of $120,000 a year.</p></section>{bottom}</article></main>"
            "<footer><p>© 2026 Harbor Logistics GmbH</p></footer></body></html>")


def test_j_an_apply_link_the_content_links_again_is_a_duplicate_and_goes():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=apply_page(slug, title, app).encode())
             for slug, title, app in JOBS]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    assert "Apply Now" not in markdown
    for fact in ("Data Engineer", "Apply for this position", "https://apply.ats.example/harbor/jobs/d4c6",
                 "$120,000 a year"):
        assert fact in markdown, fact
    assert result.report.facts_after == result.report.facts_before


def test_j_an_apply_link_the_content_does_not_link_again_stays():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/",
                          body=apply_page(slug, title, app, apply_in_content=False).encode())
             for slug, title, app in JOBS]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    assert "Apply Now" in markdown
    assert "https://apply.ats.example/harbor/jobs/d4c6" in markdown


TABS = [  # slug, title, its sections (tab label, panel id, panel text)
    ("platform-architect", "Platform Architect", [("Responsibilities", "resp", "Design the platform's core."),
                                                  ("Experience & skills", "exp", "Five years of Go.")]),
    ("quant-developer", "Quant Developer", [("What you will do", "do", "Build pricing models."),
                                            ("What you will need", "need", "Strong C++ and statistics."),
                                            ("Nice to have", "bonus", "Rust experience.")]),
    ("risk-associate", "Risk Associate", [("Overview", "over", "Join the risk team."),
                                          ("Responsibilities", "resp", "Review credit limits.")]),
    ("data-engineer", "Data Engineer", [("Your mission", "mission", "Own the data pipelines."),
                                        ("Your profile", "profile", "SQL and Python, Airflow a plus.")]),
]


def tab_page(slug, title, sections, *, in_page=True):
    def href(panel):
        return f"#{panel}" if in_page else f"/jobs/{slug}/{panel}/"
    tabs = "".join(f"<li><a role='tab' href='{href(panel)}' aria-controls='{panel if in_page else ''}'>{label}</a>"
                   "</li>" for label, panel, _text in sections)
    panels = "".join(f"<div role='tabpanel' id='{panel}'><p>{text}</p></div>" for _label, panel, text in sections)
    return (f"<html><head><title>{title} | Harbor Careers</title></head><body>"
            "<header class='site'><a href='/'>Harbor Careers</a> <a href='/jobs/'>All jobs</a></header>"
            f"<main><article><h1>{title}</h1><p>Denver, full-time, $120,000 a year</p>"
            f"<ul role='tablist'>{tabs}</ul><div class='panels'>{panels}</div></article></main>"
            "<footer><p>© 2026 Harbor Logistics GmbH</p></footer></body></html>")


def test_k_an_in_page_tab_list_is_a_control_and_goes_its_panels_stay():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=tab_page(slug, title, sections).encode())
             for slug, title, sections in TABS]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    for label in ("Your mission", "Your profile"):
        assert label not in markdown, label
    for fact in ("Data Engineer", "Own the data pipelines.", "SQL and Python, Airflow a plus.", "$120,000 a year"):
        assert fact in markdown, fact
    assert result.report.facts_after == result.report.facts_before


def test_k_tabs_that_open_other_pages_are_not_an_in_page_tab_list():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=tab_page(slug, title, sections, in_page=False).encode())
             for slug, title, sections in TABS]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    assert "Your mission" in markdown and "Own the data pipelines." in markdown
