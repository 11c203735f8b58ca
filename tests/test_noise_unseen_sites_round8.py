"""Round 8 of issue #23 (classes found on sites nobody tuned on; synthetic sites, learn on three pages, apply to a
fourth).

P. A page-wide wrapper whose siblings differ in number (a notice on some pages only) was never paired between
   samples, so everything inside it counted as this job's: it now pairs with the one sibling of its class and id.
Q. A share bar of icon links ("Share: [Facebook] [LinkedIn]", each link named by its aria-label) inside the job's
   text was "text inside the job content": a link says what its label says.
R. The same paragraph of running text on every sample inside the job's text (a company's "about us") goes; the
   heading above it stays. A paragraph that opens by naming the employer stays where nothing else states it.
S. A footer's link menu (a dl of groups of links) kept whole for one mailto link: only that item and its group's
   name stay.
T. A copyright holder linked after the sign ("© 2013-2015 <a>Acme Co</a>") is the site owner.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import copyright_holders, site_owner
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://careers.example"
JOBS = [("platform-architect", "Platform Architect", "Denver", "design the platform and review its interfaces"),
        ("quant-developer", "Quant Developer", "Boston", "build pricing models with the research desk"),
        ("risk-associate", "Risk Associate", "Austin", "measure exposure and report it every morning"),
        ("data-engineer", "Data Engineer", "Chicago", "run the warehouse loads and fix broken pipelines")]


def learn_and_apply(pages):
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    return prepare_html(pages[3].body, pages[3].url, noise_filter=result.filter).markdown


def job_pages(page):
    return [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(n, title, city, duty).encode())
            for n, (slug, title, city, duty) in enumerate(JOBS)]


def test_p_a_wrapper_beside_a_notice_on_some_pages_still_pairs_and_its_template_goes():
    related = ("<div class='more'><a href='/jobs/cleaning/'>Cleaning vacancies</a> <a href='/jobs/it/'>IT vacancies</a>"
               " <a href='/jobs/nursing/'>Nursing vacancies</a></div>")

    def page(n, title, city, duty):
        notice = "<div class='notice'>We moved to a new office building this spring.</div>" if n % 2 else ""
        return (f"<html><head><title>{title}</title></head><body>{notice}<div class='page-wrap'>"
                f"<div class='job'><h1>{title}</h1><p>{city}</p><p>You will {duty}.</p></div>{related}</div>"
                "</body></html>")

    markdown = learn_and_apply(job_pages(page))
    for menu_line in ("Cleaning vacancies", "IT vacancies", "Nursing vacancies"):
        assert menu_line not in markdown, menu_line
    for fact in ("Data Engineer", "Chicago", "run the warehouse loads"):
        assert fact in markdown, fact


def test_q_a_share_bar_of_icon_links_inside_the_job_goes():
    share = ("<div class='share-row'>Share : <a href='#' aria-label='Facebook'><svg viewBox='0 0 9 9'></svg></a>"
             "<a href='#' aria-label='LinkedIn'><svg viewBox='0 0 9 9'></svg></a>"
             "<a href='#' aria-label='WhatsApp'><svg viewBox='0 0 9 9'></svg></a></div>")

    def page(n, title, city, duty):
        return (f"<html><head><title>{title}</title></head><body><main><article><h1>{title}</h1><p>{city}</p>"
                f"<p>You will {duty}.</p>{share}</article></main></body></html>")

    markdown = learn_and_apply(job_pages(page))
    for label in ("Facebook", "LinkedIn", "WhatsApp"):
        assert label not in markdown, label
    for fact in ("Data Engineer", "Chicago", "run the warehouse loads"):
        assert fact in markdown, fact


ABOUT = ("Northwind is a multinational company with presence in 14 countries throughout the Americas and a long "
         "trajectory in telecommunications. We believe in services that connect technology with the people who use "
         "it every day.")
EQUALITY = ("We are an equal opportunity employer and value diversity at our company. We do not discriminate on the "
            "basis of race, religion, colour, national origin, gender, age or disability status.")


def test_r_a_constant_company_paragraph_in_the_job_text_goes_and_its_heading_stays():
    def page(n, title, city, duty):
        return (f"<html><head><title>{title}</title></head><body><main><div class='post'><h1>{title}</h1>"
                f"<h2>{city}</h2><div class='post-content'><h4>About Northwind</h4><p>{ABOUT}</p>"
                f"<h4>Responsibilities:</h4><ul><li>You will {duty}.</li><li>Travel to customer sites.</li></ul>"
                f"<p>{EQUALITY}</p></div></div></main></body></html>")

    markdown = learn_and_apply(job_pages(page))
    assert "multinational company" not in markdown
    assert "equal opportunity employer" not in markdown
    # the heading naming the employer, the job's own text and a requirement shared by every posting stay
    for fact in ("About Northwind", "Data Engineer", "Chicago", "run the warehouse loads", "Travel to customer sites"):
        assert fact in markdown, fact


def test_r_a_constant_paragraph_naming_the_employer_stays_where_nothing_else_names_it():
    def page(n, title, city, duty):
        return (f"<html><head><title>{title}</title></head><body><main><div class='post'><h1>{title}</h1>"
                f"<h2>{city}</h2><div class='post-content'><p>{ABOUT}</p><p>You will {duty}.</p></div></div>"
                "</main></body></html>")

    markdown = learn_and_apply(job_pages(page))
    assert "Northwind is a multinational company" in markdown
    assert "run the warehouse loads" in markdown


def test_s_a_footer_link_menu_keeps_only_its_mailto_item_and_group_name():
    footer = ("<footer><nav><dl><dt>Docs</dt><dd><a href='/docs/'>Documentation</a></dd>"
              "<dd><a href='/start/'>Getting Started</a></dd><dd><a href='/faq/'>Questions</a></dd></dl>"
              "<dl><dt>About</dt><dd><a href='/blog/'>Blog</a></dd><dd><a href='/shop/'>Shop</a></dd>"
              "<dd><a href='mailto:recruiting@northwind.example'>Contact</a></dd></dl>"
              "<dl><dt>Connect</dt><dd><a href='https://social.example/northwind'>Social</a></dd>"
              "<dd><a href='https://video.example/northwind'>Videos</a></dd>"
              "<dd><a href='https://code.example/northwind'>Code</a></dd></dl></nav></footer>")

    def page(n, title, city, duty):
        return (f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>{city}</p>"
                f"<p>You will {duty}.</p></main>{footer}</body></html>")

    markdown = learn_and_apply(job_pages(page))
    assert "mailto:recruiting@northwind.example" in markdown
    for menu_line in ("Documentation", "Getting Started", "Questions", "Blog", "Shop", "Social", "Videos"):
        assert menu_line not in markdown, menu_line
    for fact in ("Data Engineer", "Chicago", "run the warehouse loads"):
        assert fact in markdown, fact


def test_t_a_copyright_holder_linked_after_the_sign_is_the_site_owner():
    def page(n, title, city, duty):
        return (f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>{city}</p></main>"
                "<footer><p class='authors'>Code licensed under <a href='/license/'>MIT</a>. <span>|</span> "
                "&copy; 2013-2015 <a href='https://northwind.example/'>Northwind Co</a></p></footer></body></html>")

    samples = job_pages(page)
    roots = [s.prepared() for s in samples]
    assert copyright_holders(roots[0]) == ["Northwind Co"]
    assert site_owner(samples, roots) == "Northwind Co"
