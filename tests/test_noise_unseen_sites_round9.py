"""Round 9 of issue #23 (found on a fresh hold-out: one-employer career sites losing their footer's facts).

U. "Backend Developer | Acme Jobs" on Acme's own career site (its copyright line says "© Acme", each <title> is
   the page's <h1> and the site's name) is Acme's job section, not a board: its footer's office and mailbox are
   the employer's and stay. A board whose postings' headings add each employer stays a board.
V. Postcodes written with a dash ("80-232 Gdańsk") or set off by a comma ("34394, IST", "90-613, Łódź"), and a
   place with its country after "in" ("… minds in Istanbul, Turkey") in the company's constant paragraph, are
   locations.
W. A footer's columns, each holding a link, are a link list only where links make up an item's words: the
   contact column (office address beside a link to a map) states a fact.
X. On one employer's site its general mailbox at its own domain (info@acme…) in the footer is the employer's
   contact; another domain's info@ is still nobody's contact.
Y. A legal name in capitals or as a link ("Acme LTD") is the employer, and a copyright line followed by a heading
   ("© 2016 Acme" / "Made with love by Acme") names the holder "Acme".
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import ReviewRegion, RulesClassifier, job_fact_signals
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import copyright_holders, looks_like_a_board, site_owner
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://careers.example"
JOBS = [("backend-developer", "Backend Developer", "Senior Go and PostgreSQL work."),
        ("data-engineer", "Data Engineer", "Pipelines in Python and SQL."),
        ("product-owner", "Product Owner", "Own the roadmap of our apps."),
        ("ios-developer", "iOS Developer", "Swift and SwiftUI every day.")]
MENU = ("<header><a href='/'>Home</a><a href='/products/'>Products</a><a href='/jobs/'>Jobs</a>"
        "<a href='/contact/'>Contact Us</a></header>")


def learn_and_apply(pages):
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    return prepare_html(pages[3].body, pages[3].url, noise_filter=result.filter).markdown


def _pages(page):
    return [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(title, text).encode()) for slug, title, text in JOBS]


def test_u_an_employers_own_jobs_section_is_no_board_and_its_footer_office_stays():
    footer = ("<div class='footer'><p>Levent Tower Kat 23, 34394, IST</p>"
              "<p><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></p><p>© Nordwind 2023</p></div>")

    def page(title, text):
        return (f"<html><head><title>{title} | Nordwind Jobs</title></head><body>{MENU}<main><h1>{title}</h1>"
                f"<p>{text}</p></main>{footer}</body></html>")

    pages = _pages(page)
    roots = [p.prepared() for p in pages]
    assert looks_like_a_board(pages, roots) == ""
    assert site_owner(pages, roots) == "Nordwind"
    markdown = learn_and_apply(pages)
    for fact in ("34394, IST", "iOS Developer", "Swift and SwiftUI every day."):
        assert fact in markdown, fact
    assert "Privacy" not in markdown and "Products" not in markdown


def test_u_a_board_whose_headings_add_each_employer_stays_a_board():
    employers = ["Shellworks", "Notpla", "MycoWorks", "Loomia"]

    def page(title, employer):
        return (f"<html><head><title>{title} | Nordwind Jobs</title></head><body>{MENU}<main><h1>{title}</h1>"
                f"<h1>{title} - {employer}</h1><p>Work on materials.</p></main><p>© Nordwind 2023</p></body></html>")

    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(title, employer).encode())
             for (slug, title, _), employer in zip(JOBS, employers)]
    assert "lists jobs" in looks_like_a_board(pages, [p.prepared() for p in pages])


def test_v_postcodes_with_a_dash_or_a_comma_and_a_place_after_in_are_locations():
    about = ("<p>Today, Nordwind is a thriving company with several apps, and is home to 160+ curious minds in "
             "Istanbul, Turkey.</p>")

    def page(title, text):
        return (f"<html><head><title>{title} | Nordwind</title></head><body>{MENU}<main><h1>{title}</h1>"
                f"<p>{text}</p>{about}<p>Requirements: experience in Go.</p></main>"
                "<footer><p>Nordwind</p><p>Gdańska 81,</p><p>90-613, Łódź</p><p>ul. Matejki 12, 80-232 Gdańsk</p>"
                "<p><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></p></footer></body></html>")

    markdown = learn_and_apply(_pages(page))
    for fact in ("90-613, Łódź", "80-232 Gdańsk", "Istanbul, Turkey", "Swift and SwiftUI every day."):
        assert fact in markdown, fact
    assert "Privacy" not in markdown


def test_v_lists_and_years_are_no_places():
    def signals(text):
        region = ReviewRegion(id="r", selector="div", signature="s", tag="div", text=text, links=(), html="<div/>")
        return [s for s in job_fact_signals(region) if s.kind == "location"]

    assert signals("Deep experience in React, Vue, Angular and more") == []
    assert signals("© 2014-2016 Nordwind. 10,000, All rights reserved") == []
    assert signals("Our office is in Gdynia, Poland")


def test_w_a_footer_contact_column_beside_link_columns_states_its_address():
    def page(title, text):
        return (f"<html><head><title>{title} | Nordwind</title></head><body>{MENU}<main><h1>{title}</h1>"
                f"<p>{text}</p></main><footer><div class='columns'>"
                "<div class='column'><h6>explore</h6><p><a href='/about/'>about us</a></p>"
                "<p><a href='/blog/'>blog</a></p></div>"
                "<div class='column'><h6>services</h6><p><a href='/web/'>web development</a></p>"
                "<p><a href='/mobile/'>mobile development</a></p></div>"
                "<div class='column'><a href='https://social.example/nordwind'>social</a></div>"
                "<div class='column'><h6>contact</h6><div>Hafenstraße 12, <br>20457 Hamburg</div>"
                "<div><a href='https://maps.example/nordwind'>directions</a></div></div>"
                "</div><p>© 2021 Nordwind. All rights reserved.</p></footer></body></html>")

    markdown = learn_and_apply(_pages(page))
    for fact in ("Hafenstraße 12", "20457 Hamburg", "iOS Developer"):
        assert fact in markdown, fact
    assert "web development" not in markdown


def test_x_one_employers_general_mailbox_at_its_own_domain_is_its_contact():
    def page(title, text, mailbox):
        return (f"<html><head><title>{title} | Nordwind Labs</title></head><body>{MENU}<main><h1>{title}</h1>"
                f"<p>{text}</p></main><footer><p>Questions? Mail {mailbox}</p>"
                "<p><a href='/privacy/'>Privacy</a></p><p>© 2021 Nordwind Labs</p></footer></body></html>")

    own = learn_and_apply([TrainingPage(url=f"{ORIGIN}/jobs/{slug}/",
                                        body=page(title, text, "info@nordwindlabs.example").encode())
                           for slug, title, text in JOBS])
    assert "info@nordwindlabs.example" in own
    other = learn_and_apply([TrainingPage(url=f"{ORIGIN}/jobs/{slug}/",
                                          body=page(title, text, "info@webhost.example").encode())
                             for slug, title, text in JOBS])
    assert "info@webhost.example" not in other and "iOS Developer" in other


def test_y_a_linked_legal_name_in_capitals_is_the_employer_and_the_copyright_line_ends_at_a_heading():
    def page(title, text):
        return (f"<html><head><title>Nordwind | {title}</title></head><body>{MENU}<main><h1>{title}</h1>"
                f"<p>{text}</p></main><footer><div class='copy'><a href='/'>© 2014-2016 Nordwind</a>"
                "<h4>Made with love by Nordwind</h4></div>"
                "<div class='contact'><a href='https://nordwind.example'>Nordwind LTD</a></div>"
                "<p><a href='/privacy/'>Privacy</a></p></footer></body></html>")

    pages = _pages(page)
    assert copyright_holders(pages[0].prepared()) == ["Nordwind"]
    assert site_owner(pages, [p.prepared() for p in pages]) == "Nordwind"
    markdown = learn_and_apply(pages)
    assert "Nordwind LTD" in markdown
    assert "Privacy" not in markdown


# The noise side of the same hold-out: words that looked like facts in template.

def test_z_a_published_with_credit_a_menus_descriptions_and_legal_links_state_no_fact():
    mega_menu = ("<nav><ul><li><dl><dt><a href='/support/'>Get Help</a></dt><dd>Read our "
                 "<a href='/docs/'>documentation and FAQs</a>, or <a href='/contact/'>get in touch</a>.</dd></dl></li>"
                 "<li><dl><dt><a href='/extensions/'>Extensions</a></dt><dd>Do even more with "
                 "<a href='/plugins/'>plugins</a> and integrations.</dd></dl></li></ul></nav>")
    legal = ("<div class='footer'><p><a href='/rights-policy/'>Rights Policy</a> "
             "<a href='/data-subject-application-form/'>Data Subject Application</a> "
             "<a href='/files/notice.pdf'>Candidate Information Notice</a></p>"
             "<p>Published with <a href='https://pages.example'>Static Pages</a></p></div>")

    def page(title, text):
        return (f"<html><head><title>{title} | Nordwind</title></head><body>{mega_menu}<main><h1>{title}</h1>"
                f"<p>{text}</p><p>Posted: 3 May 2026</p><a href='/jobs/{title.lower()}/apply'>Apply now</a>"
                f"</main>{legal}</body></html>")

    markdown = learn_and_apply(_pages(page))
    for noise in ("Read our", "Data Subject Application", "Candidate Information Notice", "Published with"):
        assert noise not in markdown, noise
    for fact in ("iOS Developer", "Posted: 3 May 2026", "Apply now"):
        assert fact in markdown, fact
