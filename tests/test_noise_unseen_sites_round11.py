"""Round 11 of issue #23 (found on the weak studied hold-out sites: template text in the element of a fact).

AG. A site footer that differs between samples (an older footer on one page: one link more, a phone added on
    the others) is still the site's: its parts are judged (menus go, the address and the mailbox stay), not kept
    whole as "text inside the job content" because the job's region is the whole <body>.
AH. The copyright line naming the site owner is the employer's statement: it stays, also where the job's text
    names the owner; a logo line beside it that only repeats the name goes instead.
AI. Titles naming the site owner ("Careers at Tallow & Co. | Job", "Careers at Tallow & Co. Studio | Job") are
    no sign of a board: the owner's footer line stays.
AJ. Links inside a sentence ("Text under <a>CC-BY</a>. Code under <a>MIT</a> | © 2016 <a>Quillby Co</a>") are no
    link list: the linked holder names the employer, and a link kept for a name is no second way to apply.
AK. Statements: a region kept for one fact keeps that fact's line only. After the copyright line's <br> a cookie
    sentence with its privacy link goes, a designer's credit after a "·" goes; an address broken over two lines,
    a bare place name ("Varberg, Sverige") and a mailbox stay.
"""

from __future__ import annotations

from gigflow.noise.statements import drop_statements, statements
from noise_helpers import FOUR_JOBS, SITE_MENU, learn_four_jobs

JOBS = FOUR_JOBS


_learn_and_prepare = learn_four_jobs


MENU = SITE_MENU


def test_ag_a_site_footer_differing_on_one_page_is_judged_by_its_parts():
    def page(k, slug, title, text, need):
        older = k == 0  # the first sample carries an older footer: one link more, no phone
        links = "".join(f"<a href='/{p}/'>{p.title()} range</a>" for p in ("kettle", "valve", "pump", "tank")) + (
            "<a href='/faq/'>Questions</a>" if older else "")
        phone = "" if older else "<a href='tel:+46340123456'>+46 340 12 34 56</a>"
        return (f"<html><head><title>{title} | Brannvik</title></head><body>{MENU}"
                f"<section><h1>{title}</h1></section><section><p>{text}</p><ul><li>{need}</li></ul></section>"
                f"<footer><div class='cols'><div><h3>Products</h3>{links}</div>"
                f"<div><h3>Contact</h3><a href='mailto:jobs@brannvik.example'>jobs@brannvik.example</a>{phone}"
                f"<span>Hamnvägen 4<br>43241 Varberg</span></div></div></footer></body></html>")

    _result, markdown = _learn_and_prepare(page, "https://brannvik.example")
    assert "Pump range" not in markdown and "Valve range" not in markdown  # the footer's product menu goes
    assert "jobs@brannvik.example" in markdown and "43241 Varberg" in markdown
    assert "Certified welding experience" not in markdown and "Steel Buyer" in markdown


def _owner_page(k, slug, title, text, need, *, title_prefix="Careers at Halvard Systems", logo_line=True):
    logo = "<div class='brand'><p>Halvard Systems</p><p><a href='/'>Home</a> <a href='/code/'>Code</a></p></div>" \
        if logo_line else ""
    return (f"<html><head><title>{title_prefix} | {title}</title></head><body>{MENU}"
            f"<main><h1>{title}</h1><p>{text} Halvard Systems builds control software.</p><ul><li>{need}</li></ul>"
            f"</main><footer>{logo}<div class='legal'>© Halvard Systems 2026 All Rights Reserved.</div></footer>"
            "</body></html>")


def test_ah_the_copyright_line_naming_the_owner_stays_and_the_logo_line_goes():
    _result, markdown = _learn_and_prepare(_owner_page, "https://halvard.example")
    assert "© Halvard Systems 2026 All Rights Reserved." in markdown
    assert "Code" not in markdown.replace("control software", "")  # the logo line's links go


def test_ai_titles_naming_the_owner_and_its_studio_are_no_board():
    def page(k, slug, title, text, need):
        prefix = "Careers at Tallow & Co. Studio" if k == 2 else "Careers at Tallow & Co."
        return (f"<html><head><title>{prefix} | {title}</title></head><body>{MENU}"
                f"<main><h1>{title}</h1><p>{text} At Tallow & Co. we make furniture.</p><ul><li>{need}</li></ul>"
                f"</main><footer><p>© Tallow & Co. 2018</p><p><a href='/imprint/'>Imprint</a></p></footer>"
                "</body></html>")

    result, markdown = _learn_and_prepare(page, "https://tallow.example")
    assert "© Tallow & Co. 2018" in markdown
    assert "Imprint" not in markdown


def test_aj_links_in_a_sentence_are_no_link_list_and_the_linked_holder_stays():
    def page(k, slug, title, text, need):
        return (f"<html><head><title>{title} | Quillby</title></head><body>{MENU}"
                f"<main><h1>{title}</h1><p>{text} Quillby is a small team.</p><ul><li>{need}</li></ul>"
                f"<p><a href='https://quillby.example/'>Visit us</a></p></main>"
                f"<footer><div class='copy'><p>Text under <a href='/license/'>CC-BY</a>. Code under "
                f"<a href='https://licenses.example/mit'>MIT</a> <span>|</span> © 2016 "
                f"<a href='https://quillby.example/'>Quillby Co</a></p></div></footer></body></html>")

    _result, markdown = _learn_and_prepare(page, "https://quillby.example")
    assert "Quillby Co" in markdown
    assert "Text under" not in markdown and "MIT" not in markdown


def test_ak_a_kept_footer_part_keeps_its_facts_lines_and_loses_the_rest():
    def page(k, slug, title, text, need):
        return (f"<html><head><title>{title} | Ostrava Mills</title></head><body>{MENU}"
                f"<main><h1>{title}</h1><p>{text}</p><ul><li>{need}</li></ul></main>"
                f"<footer><div class='bottom'>© 2026 Ostrava Mills AB. All rights reserved.<br>We use cookies to "
                f"give you the best experience on our website. <a href='/privacy/'>Privacy Policy</a></div>"
                f"<p>Hamngatan 12,<br>Varberg, Sverige · Site by <a href='https://pixelwright.example'>Pixelwright"
                f"</a><br><a href='mailto:hr@ostrava.example'>hr@ostrava.example</a></p></footer></body></html>")

    result, markdown = _learn_and_prepare(page, "https://ostrava.example")
    assert "© 2026 Ostrava Mills AB. All rights reserved." in markdown
    assert "We use cookies" not in markdown and "Privacy Policy" not in markdown
    assert "Pixelwright" not in markdown and "Site by" not in markdown
    for fact in ("Hamngatan 12,", "Varberg, Sverige", "hr@ostrava.example", "Steel Buyer"):
        assert fact in markdown, fact
    assert any(rule.drop_statements for rule in result.filter.rules)


def test_ak_statements_are_cut_at_line_breaks_and_separators_and_removed_with_their_separator():
    from lxml import html

    block = html.fromstring("<p>© 2024 Acme <span>|</span> Made by <a href='/x'>Studio</a> · Lund<br>Open daily</p>")
    assert [s.text for s in statements(block)] == ["© 2024 Acme", "Made by Studio", "Lund", "Open daily"]
    assert drop_statements(block, {"Made by Studio", "Open daily"}) == ["Made by Studio", "Open daily"]
    assert " ".join(block.text_content().split()) == "© 2024 Acme · Lund"
