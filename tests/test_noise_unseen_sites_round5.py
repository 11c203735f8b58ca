"""Round 5 of issue #23 (sites never seen): failure classes found on unlabelled sites outside every bench set.

H. Bounded per-page variation. A site menu is the same on most pages but not all: on some the current item is
   plain text instead of a link, or the menu has one more entry. Such a page's menu used to have another
   signature, so it "changed since learning" and stayed whole. A region whose lines are the learned region's
   lines, or new link-only lines stating no fact, is the same region; a region with a new text line (this job's
   city in the header) is not, and stays.
I. The site's contact block in its footer. On a board (JSON-LD naming several employers, or pages that read as a
   board: titles naming different companies, outbound links to different employers, a directory of companies)
   the footer's postal address, phone and mailbox are the operator's, not the vacancy's; on one employer's site
   they are the employer's and stay.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://careers.example"
JOBS = [  # slug, title, city
    ("platform-architect", "Platform Architect", "Denver"),
    ("quant-developer", "Quant Developer", "Boston"),
    ("risk-associate", "Risk Associate", "Austin"),
    ("data-engineer", "Data Engineer", "Chicago"),
]
SECTIONS = ["About us", "Our teams", "Life at Harbor", "Students", "Open positions"]


def menu(current: str | None, extra: bool) -> str:
    items = [f"<li><span>{name}</span></li>" if name == current else
             f"<li><a href='/{name.lower().replace(' ', '-')}/'>{name}</a></li>" for name in SECTIONS]
    if extra:
        items.append("<li><a href='/events/'>Events and meetups</a></li>")
    return f"<nav class='side-menu'><ul>{''.join(items)}</ul></nav>"


def page(slug, title, city, *, current=None, extra=False, footer=""):
    return (f"<html><head><title>{title} | Harbor Careers</title></head><body>"
            f"<div class='topbar'><a href='/'>Harbor Careers</a> <a href='/jobs/'>All jobs</a><p>{city}</p></div>"
            + menu(current, extra)
            + f"<main><article><h1>{title}</h1><h2>The role</h2><p>You will own the {title.lower()} work; "
            f"a full-time position with a salary of $120,000 a year.</p></article></main>" + footer + "</body></html>")


def learn(pages):
    return learn_noise_filter(pages, None, RulesClassifier(NoiseSettings()), config_hash="h")


def test_h_a_menu_with_one_more_item_or_a_plain_current_item_is_still_the_learned_menu():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(slug, title, city, **variation).encode())
             for (slug, title, city), variation in zip(JOBS, [{}, {}, {"current": "Open positions"},
                                                             {"current": "Open positions", "extra": True}])]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    for template in ("Life at Harbor", "Our teams", "Events and meetups"):
        assert template not in markdown, template
    # The header line with this job's city is new text, not a menu item: that region is never taken as template.
    for fact in ("Data Engineer", "Chicago", "The role", "$120,000 a year"):
        assert fact in markdown, fact
    assert result.report.facts_after == result.report.facts_before


SITE_FOOTER = ("<footer><div class='office'><address>Hafenstraße 12<br>20457 Hamburg<br>+49 40 1234 5678<br>"
               "<a href='mailto:office@harbor.example'>office@harbor.example</a></address></div>"
               "<div class='legal'><p>© 2026 Harbor Logistics GmbH</p><a href='/privacy/'>Privacy</a></div>"
               "<div class='jobs-mail'><p>Questions about a vacancy?</p>"
               "<a href='mailto:careers@harbor.example'>careers@harbor.example</a></div></footer>")


def test_i_the_sites_office_address_phone_and_mailbox_in_its_footer_are_not_job_facts():
    # a job board's footer (its pages' titles name different employers): the board's office block, not the
    # vacancy's
    footer = SITE_FOOTER.replace("© 2026 Harbor Logistics GmbH", "© 2026 Harbor Job Board")
    employers = ["Apple", "Google", "Siemens", "Bosch"]
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/",
                          body=page(slug, title, city, footer=footer)
                          .replace(f"<title>{title} | Harbor Careers", f"<title>{title} at {employer} | Harbor Job Board")
                          .replace("Harbor Careers", "Harbor Job Board").encode())
             for (slug, title, city), employer in zip(JOBS, employers)]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    for furniture in ("Hafenstraße 12", "20457 Hamburg", "+49 40 1234 5678", "office@harbor.example"):
        assert furniture not in markdown, furniture
    for fact in ("Data Engineer", "Chicago", "$120,000 a year"):
        assert fact in markdown, fact


def test_i_a_footer_naming_the_employer_keeps_its_address_and_mailbox():
    # the same footer on one employer's site whose name it carries (the source's company): the employer's own
    # address and mailbox, job facts (issue #23: a fact is about the job or its employer)
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(slug, title, city, footer=SITE_FOOTER).encode(),
                          company="Harbor Logistics")
             for slug, title, city in JOBS]
    result = learn(pages[:3])
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    for fact in ("Hafenstraße 12", "20457 Hamburg", "office@harbor.example", "careers@harbor.example"):
        assert fact in markdown, fact
