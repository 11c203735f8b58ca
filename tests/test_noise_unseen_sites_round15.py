"""Round 15 of issue #23 (found on hold-out 9's proferocn and staples, studied from round 15 on).

AT. A site-wide "get in touch" box whose one fact is the mailbox the job's own apply link writes to. A dialog or box
    the same on every page ("Join us! If you love the web, write to jobs@…") was kept by the rules for its contact
    and its mail link. Where the job's content links to or states that mailbox on every sample (its "Apply" button
    writes to jobs@… with this job's subject), the box adds nothing the page loses: it goes
    (`restated_mailbox.py`). A box naming another mailbox, or stating more than the mailbox, stays.
AU. The site's name written as text in its header. "<div>Kornfeld</div><a href="/">Works</a>" beside a logo
    image without alt text is the site's brand, as a logo's alt text is: the owner check reads it
    (`brand.header_brand_texts`), and the header part stating it stays as the employer where nothing else names
    it. A name set in two blocks is still the name: a region stating it only across its parts is kept whole
    (`brand.name_across_parts`), not split into parts that each name nothing.

Each behaviour test fails on the code before round 15 (checked on commit 7b64000); the guards pass on both.
"""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from gigflow.noise.learn.brand import header_brand_texts
from gigflow.noise.learn.restated_mailbox import _content_mailboxes, mailbox
from noise_helpers import SITE_MENU, learn_four_jobs


def _learn_and_prepare(make, origin: str = "https://kornfeld.example") -> str:
    return learn_four_jobs(lambda _k, _slug, *job: make(*job), origin)[1]


def _join_us_site(apply_to: str, box_mailbox: str = "jobs@kornfeld.example", box_extra: str = ""):
    def page(title, text, need):
        return (f"<html><head><title>{title} – Kornfeld</title></head><body>"
                f"<header>{SITE_MENU}</header>"
                f"<main><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul>"
                f"<a class='button' href='mailto:{apply_to}?subject=Application%3A%20{title}'>Apply for this job</a>"
                "</main><footer><p><a href='/privacy/'>Privacy</a></p></footer>"
                "<div id='join' class='modal'><h2>Join us!</h2>"
                f"<p>If you love building machines, we would like to hear from you.{box_extra}</p>"
                f"<div><a href='mailto:{box_mailbox}?subject=Open%20application'>{box_mailbox}</a>"
                "<a href='#' class='close'>Close ×</a></div></div></body></html>")
    return page


def test_at_a_join_us_box_goes_where_the_jobs_apply_link_writes_to_its_mailbox():
    markdown = _learn_and_prepare(_join_us_site("jobs@kornfeld.example"))
    assert "we would like to hear from you" not in markdown and "Join us!" not in markdown
    assert "Close ×" not in markdown
    assert "mailto:jobs@kornfeld.example?subject=Application" in markdown  # the job's own way to apply
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_at_guard_a_box_naming_another_mailbox_stays():
    markdown = _learn_and_prepare(_join_us_site("hr@kornfeld.example"))
    assert "jobs@kornfeld.example" in markdown  # a second contact the job's text does not give


def test_at_guard_a_box_stating_more_than_the_mailbox_stays():
    markdown = _learn_and_prepare(_join_us_site("jobs@kornfeld.example", box_extra=" Or call +49 30 1234 5678."))
    assert "+49 30 1234 5678" in markdown


def test_at_a_mailbox_is_its_address_without_the_subject():
    assert mailbox("mailto:Jobs@Acme.example?subject=Job%20Application") == "jobs@acme.example"
    assert mailbox("mailto:%6Aobs@acme.example") == "jobs@acme.example"
    assert mailbox("https://acme.example/apply") == "" and mailbox(None) == ""


def _brand_site(title_affix: str = "Works"):
    def page(title, text, need):
        return (f"<html><head><title>{title_affix} - {title}</title></head><body>"
                "<table id='header'><tr><td><a href='/'><img src='/robot.png'></a></td>"
                "<td><div class='small'>Kornfeld</div><a href='/'><div class='big'>Works</div></a></td></tr></table>"
                "<table id='nav-bar'><tr><td><a href='/about.html'>Who we are</a></td>"
                "<td><a href='/work.html'>What we do</a></td><td><a href='/jobs'>Join the team</a></td>"
                "<td><a href='/blog'>Blog</a></td></tr></table>"
                f"<div id='content'><h2>{title}</h2><p>{text}</p><h3>Requirements</h3><ul><li>{need}</li></ul>"
                "<p>Sound like a challenge? Write to <a href='mailto:jobs@kornfeld.example'>jobs@kornfeld.example</a>"
                "</p></div></body></html>")
    return page


def test_au_a_text_logo_in_the_header_names_the_employer_and_stays():
    markdown = _learn_and_prepare(_brand_site())
    assert "Kornfeld" in markdown and "Works" in markdown  # the header's brand, the only statement of the employer
    assert "What we do" not in markdown and "Blog" not in markdown  # the menu still goes
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_au_the_brand_is_the_block_around_the_home_link_of_a_names_size():
    page = lxml_html.fromstring("<html><body><div class='site-header'><a href='/'><img src='/l.png'></a>"
                                "<span>Kornfeld</span> <a href='/'>Works</a></div><main><h1>Job</h1></main>"
                                "</body></html>")
    assert header_brand_texts(page) == ["Kornfeld Works"]
    menu = lxml_html.fromstring("<html><body><header><ul><li><a href='/'>Home</a></li><li><a href='/jobs/'>Jobs"
                                "</a></li><li><a href='/about/'>About us</a></li></ul></header></body></html>")
    assert header_brand_texts(menu) == []  # a menu's home link: "Home" alone is no name, the menu no brand
    nav_only = lxml_html.fromstring("<html><body><nav><a href='/'>Kornfeld</a></nav></body></html>")
    assert header_brand_texts(nav_only) == []  # a nav is no header


@pytest.mark.timeout(20)
def test_the_mailboxes_of_a_page_are_read_in_linear_time_on_hostile_text():
    # 300,000 address characters with no "@": an address pattern that may start anywhere in the run backtracks
    # over the rest of it from every position (minutes); starting only where a run starts, it is one pass.
    root = lxml_html.fromstring("<html><body><p>" + "a" * 300_000 + "</p>"
                                "<p>Write to jobs@acme.example</p></body></html>")
    assert _content_mailboxes(root, set()) == {"jobs@acme.example"}
