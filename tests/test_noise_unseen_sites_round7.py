"""Round 7 of issue #23 (found on sites nobody tuned on).

L. A footer's link menu laid out as a definition list (``<dt>Docs</dt><dd><a>Overview</a></dd>``) was kept whole
   as "label/value markup": its values are links, not facts. A list whose values state words stays.
M. The site owner read from the <title> affix where the rest of each title is one of the page's headings, also
   when a sidebar's brand heading comes first: its name in the sidebar is the employer, kept.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import site_owner
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://careers.example"
JOBS = [("platform-architect", "Platform Architect", "Denver"), ("quant-developer", "Quant Developer", "Boston"),
        ("risk-associate", "Risk Associate", "Austin"), ("data-engineer", "Data Engineer", "Chicago")]
LINK_MENU = ("<footer><nav><dl><dt>Docs</dt><dd><a href='/docs/'>Documentation</a></dd>"
             "<dd><a href='/start/'>Getting Started</a></dd><dd><a href='/faq/'>Questions</a></dd></dl>"
             "<dl><dt>Community</dt><dd><a href='/forum/'>Forum</a></dd><dd><a href='/blog/'>Blog</a></dd></dl>"
             "</nav></footer>")


def learn_and_apply(pages):
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    return prepare_html(pages[3].body, pages[3].url, noise_filter=result.filter).markdown


def test_l_a_definition_list_of_links_is_a_menu_and_one_of_values_stays():
    def page(title, city, side):
        return (f"<html><head><title>{title}</title></head><body><main><article><h1>{title}</h1><p>{city}</p>"
                f"<p>You will own the {title.lower()} work.</p></article></main>{side}{LINK_MENU}</body></html>")

    facts = ("<aside><dl><dt>Salary</dt><dd>EUR 60,000 a year</dd><dt>Hours</dt><dd>Full-time</dd></dl></aside>")
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(title, city, facts).encode())
             for slug, title, city in JOBS]
    markdown = learn_and_apply(pages)
    for menu_line in ("Documentation", "Getting Started", "Forum"):
        assert menu_line not in markdown, menu_line
    for fact in ("Data Engineer", "Chicago", "EUR 60,000 a year", "Full-time"):
        assert fact in markdown, fact


def test_m_the_title_affix_names_the_owner_when_the_title_is_a_later_heading():
    def page(title):
        return (f"<html><head><title>{title} · Acme Student Developers</title></head><body>"
                "<div class='sidebar'><h1><a href='/'>Acme Student Developers</a></h1></div>"
                f"<div class='content'><h1>{title}</h1><p>Paid student job.</p></div></body></html>")

    samples = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(title).encode()) for slug, title, _ in JOBS]
    assert site_owner(samples, [s.prepared() for s in samples]) == "Acme Student Developers"


def test_n_one_employers_footer_contact_stays_even_where_the_footer_does_not_name_it():
    # a career site whose footer gives its office and mailbox without its name (no board signal anywhere): the
    # employer's contact, a job fact; only a board's footer block is the operator's
    footer = ("<footer><address>318 Blackwell Street, Suite 150<br>Durham, NC 27701<br>"
              "<a href='mailto:hello@studio.example'>hello@studio.example</a></address>"
              "<p><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></p></footer>")

    def page(title, city):
        return (f"<html><head><title>{title} | Careers</title></head><body><header><a href='/'>Home</a>"
                f"<a href='/careers/'>Careers</a><a href='/work/'>Work</a></header><main><h1>{title}</h1>"
                f"<p>{city}</p><p>You will own the {title.lower()} work.</p></main>{footer}</body></html>")

    pages = [TrainingPage(url=f"{ORIGIN}/careers/{slug}/", body=page(title, city).encode())
             for slug, title, city in JOBS]
    markdown = learn_and_apply(pages)
    for fact in ("318 Blackwell Street, Suite 150", "hello@studio.example", "Data Engineer"):
        assert fact in markdown, fact


def test_o_a_site_named_for_listing_jobs_is_a_board_and_its_footer_block_goes():
    # "… | Greenfield Jobs" on every page and in the copyright line: a board; its footer's mailbox and address are
    # the operator's (a career site called "Careers", test N, keeps them)
    footer = ("<footer><p>Want to list your vacancy? Write to listings@greenfield.example, 12 Mill Road, Leeds</p>"
              "<p>© 2026 Greenfield Jobs</p></footer>")

    def page(title, city):
        return (f"<html><head><title>{title} | Greenfield Jobs</title></head><body><header><a href='/'>Home</a>"
                f"<a href='/jobs/'>All jobs</a><a href='/about/'>About</a></header><main><h1>{title}</h1>"
                f"<p>{city}</p><p>You will own the {title.lower()} work.</p></main>{footer}</body></html>")

    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(title, city).encode())
             for slug, title, city in JOBS]
    markdown = learn_and_apply(pages)
    assert "listings@greenfield.example" not in markdown and "12 Mill Road" not in markdown
    for fact in ("Data Engineer", "Chicago"):
        assert fact in markdown, fact
