"""Round 12 of issue #23 (found on hold-out 7, studied from this round on: zeppelin, agora, pracujucemamy).

AL. A short line naming the site owner's jobs ("← Openings at Quarnby", a back link to the list of openings) is
    the employer's statement, like the copyright line: it stays where the job's own text names the owner too (the
    owner is then protected nowhere else), while the menus around it go.
AM. A wrapper whose every word sits in the site's nav (a fixed top bar around a <nav> whose logo is an <h1>) is
    the nav's: its heading is the site's, not "a heading inside the job content" when the job's region is the
    whole <body>; the menu goes.
AN. A board's menu naming its other audience in Central European languages ("Pre firmy", "Dla pracodawców") is a
    board signal like "For employers": the site footer's phone, mailbox and address are the operator's and go,
    each job's employer and way to apply stay.
AO. A listing of other openings ("More openings": a card per job, its link into the same folder as the others and
    a teaser) inside the job's container is other pages' words: its heading and cards are judged and go, the job's
    own heading, text and list stay.
AP. A heading beside the site's copyright line ("/ Follow us" over icon links and "© 2024 Quarnby") names the
    section's links, not the line: in a part kept only for the copyright line, headings and their values are
    judged, so the heading and the icon links go and the line stays.

Each test fails on the code before round 12 (AL-AO checked on commit 6bccc6a, AP on 8cea7c3); AN's guard (a
one-employer site keeps its footer office) passes on both.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier, openings_line
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage
from noise_helpers import FOUR_JOBS, SITE_MENU, learn_four_jobs

JOBS = FOUR_JOBS


_learn_and_prepare = learn_four_jobs


MENU = SITE_MENU


def test_al_a_back_link_naming_the_owners_openings_is_the_employer():
    def page(k, slug, title, text, need):
        return (f"<html><head><title>{title}</title></head><body>{MENU}"
                f"<section><div><a href='/jobs/' class='back'><i>arrow_back</i> Openings at Quarnby</a>"
                f"<h1>{title}</h1><p>{text} Quarnby builds dairy lines.</p><ul><li>{need}</li></ul></div></section>"
                "<footer><p><a href='/privacy/'>Privacy</a> <a href='/press/'>Press</a></p>"
                "<p>© 2024 Quarnby</p></footer></body></html>")

    _result, markdown = _learn_and_prepare(page, "https://quarnby.example")
    assert "Openings at Quarnby" in markdown
    assert "Products" not in markdown and "Press" not in markdown  # the menus still go
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_al_only_a_short_line_naming_the_owner_and_its_jobs_counts():
    assert openings_line("arrow_back Openings at Quarnby", "Quarnby")
    assert openings_line("Quarnby Careers", "Quarnby")
    assert not openings_line("Openings at Brightline", "Quarnby")  # another name
    assert not openings_line("Quarnby", "Quarnby")  # the name alone says no more than the logo
    assert not openings_line("Read how Quarnby hires: our careers blog has every story since 2010", "Quarnby")
    assert not openings_line("Quarnby Jobs", "Quarnby Jobs")  # the jobs word inside the owner's own name


def test_am_a_top_bar_around_the_nav_goes_with_the_nav():
    def page(k, slug, title, text, need):
        # The title and the text sit in separate blocks: the job's region is the whole <body>.
        return (f"<html><head><title>{title}</title></head><body>"
                "<div class='fixed raised'><nav role='navigation'><ul><li><h1><a href='/'>"
                "<img alt='Tessaly' src='/logo.svg'></a></h1></li><li><a href='#'><span>Menu</span></a></li></ul>"
                "<ul><li><a href='/#about'>About</a></li><li><a href='/#team'>Team</a></li>"
                "<li><a href='/careers'>Careers</a></li><li><a href='/#contact'>Contact</a></li></ul></nav></div>"
                f"<div class='bright'><h2>{title}</h2></div><div class='row'><p>{text}</p>"
                f"<h5>What you bring</h5><ul><li>{need}</li></ul></div></body></html>")

    _result, markdown = _learn_and_prepare(page, "https://tessaly.example")
    assert "About" not in markdown and "Contact" not in markdown and "Team" not in markdown
    assert "Steel Buyer" in markdown and "You buy sheet and tube from mills." in markdown
    assert "What you bring" in markdown and "Experience in purchasing" in markdown


EMPLOYERS = ["Dornova s.r.o.", "Velkor a.s.", "Sklad Plus s.r.o.", "Mlyn Trnka s.r.o."]


def _board_page(audience: str):
    def page(k, slug, title, text, need):
        employer = EMPLOYERS[k]
        mailbox = f"hr@{employer.split()[0].lower()}.example"
        nav = ("<nav><ul><li><a href='/'>Domov</a></li><li><a href='/moms/'>Pre mamy</a></li>"
               f"<li><a href='/companies/'>{audience}</a></li><li><a href='/jobs/'>Ponuky</a></li></ul></nav>")
        return (f"<html><head><title>{title}</title></head><body>{nav}"
                f"<div class='job'><h1>{title}</h1><p>Zamestnávateľ: {employer}</p><p>{text}</p>"
                f"<ul><li>{need}</li></ul><p>CV zasielajte na <a href='mailto:{mailbox}'>{mailbox}</a>.</p></div>"
                "<div class='row footer'><div><p>info@mamyprace.example<br>+421 949 111 222</p>"
                "<span>OZ Mamy Práce<br>Hlavná 12<br>917 01 Trnava</span></div></div>"
                "<div class='copyright'><p>© 2021-2023 Mamy Práce. All Rights Reserved</p></div></body></html>")
    return page


def test_an_a_boards_menu_for_companies_in_slovak_makes_its_footer_the_operators():
    _result, markdown = _learn_and_prepare(_board_page("Pre firmy"), "https://mamyprace.example")
    assert "+421 949 111 222" not in markdown and "info@mamyprace.example" not in markdown
    assert "Hlavná 12" not in markdown
    assert "Mlyn Trnka s.r.o." in markdown and "mailto:hr@mlyn.example" in markdown
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_an_guard_a_menu_without_an_employer_audience_keeps_the_owners_footer():
    _result, markdown = _learn_and_prepare(_board_page("Blog"), "https://mamyprace.example")
    assert "+421 949 111 222" in markdown  # read as the owner's own site, as before: its office stays


OTHER_JOBS = [("cook", "Line Cook", "You cook for our canteen every weekday..."),
              ("painter", "Spray Painter", "Our paint shop finishes tanks and frames..."),
              ("electrician", "Service Electrician", "You keep the two lines running..."),
              ("clerk", "Stores Clerk", "You run the stores for spare parts...")]


def test_ao_a_list_of_other_openings_inside_the_jobs_container_goes():
    cards = "".join(f"<div class='row'><div class='name'><a href='/careers/job/{slug}'>{name}</a></div>"
                    f"<div class='teaser'><p>{teaser}</p></div></div>" for slug, name, teaser in OTHER_JOBS)

    def page(k, slug, title, text, need):
        # The title sits apart from the text: the job's region is the wrapper holding the listing too.
        return (f"<html><head><title>{title}</title></head><body>{MENU}<div class='page'>"
                f"<div class='titlebar'><h1>{title}</h1></div><div class='main'><article><p>{text}</p>"
                f"<h3>What you bring</h3><ul><li>{need}</li><li>Good spoken English</li></ul></article>"
                f"<section><h2>More openings</h2><div class='list'>{cards}</div></section></div></div>"
                "<footer><p>© 2024 Brenholt</p></footer></body></html>")

    pages = [TrainingPage(url=f"https://brenholt.example/careers/job/{slug}",
                          body=page(k, slug, title, text, need).encode())
             for k, (slug, title, text, need) in enumerate(JOBS)]
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    markdown = prepare_html(pages[3].body, pages[3].url, noise_filter=result.filter).markdown
    assert "More openings" not in markdown and "Spray Painter" not in markdown
    assert "Our paint shop finishes" not in markdown
    assert "Steel Buyer" in markdown and "You buy sheet and tube from mills." in markdown
    assert "What you bring" in markdown and "Experience in purchasing" in markdown


def test_ao_guard_a_list_of_the_jobs_own_links_is_no_listing():
    from lxml import html as lxml_html

    from gigflow.noise.learn.template import other_jobs_list

    listing = lxml_html.fromstring("<section><h2>More openings</h2><div>" + "".join(
        f"<div><a href='/careers/job/{s}'>{n}</a><p>{t}</p></div>" for s, n, t in OTHER_JOBS) + "</div></section>")
    assert other_jobs_list(listing)
    # Links to different places (a tool list, the job's own references) or too much text of its own: no listing.
    tools = lxml_html.fromstring("<ul><li><a href='/docs/git/intro'>Git</a></li><li><a href='/tools/ci/x'>CI</a>"
                                 "</li><li><a href='/blog/2024/post'>Blog</a></li></ul>")
    assert not other_jobs_list(tools)
    prose = lxml_html.fromstring("<div><p>We build dairy lines for farms across the north and we hire all year "
                                 "round.</p><div>" + "".join(f"<div><a href='/careers/job/{s}'>{n}</a></div>"
                                                             for s, n, _t in OTHER_JOBS) + "</div></div>")
    assert not other_jobs_list(prose)


def test_ap_a_heading_beside_the_copyright_line_goes_with_the_links_it_names():
    social = "".join(f"<a href='https://{host}/quarnby'><img src='/icons/{host}.svg'></a>"
                      for host in ("github.com", "instagram.com", "twitter.com"))

    def page(k, slug, title, text, need):
        return (f"<html><head><title>{title}</title></head><body>{MENU}"
                f"<main><h1>{title}</h1><p>{text} Quarnby builds dairy lines.</p><ul><li>{need}</li></ul></main>"
                "<footer><div class='cols'><div><h2>/ Products</h2><a href='/kettles/'>Kettles</a>"
                "<a href='/valves/'>Valves</a></div>"
                f"<div><h2>/ Follow us</h2><div class='icons'>{social}</div><p>© 2024 Quarnby</p></div></div>"
                "</footer></body></html>")

    _result, markdown = _learn_and_prepare(page, "https://quarnby.example")
    assert "© 2024 Quarnby" in markdown  # the copyright line stays (round 11's AH)
    assert "Follow us" not in markdown and "instagram.com" not in markdown
    assert "Kettles" not in markdown and "Steel Buyer" in markdown
