"""Round 13 of issue #23 (found on hold-out 8, studied from this round on: helabs, tendermint).

AQ. An office written as a link or in an <address> element is a place. A one-employer site's footer lists its
    offices, each inside <address> as a link to a map ("Office name / street, number / district / city - state,
    country") beside a phone link. The whole office was link words (a menu's words state nothing) and its street
    matched no address pattern, so it went while its phone stayed. A link to a map service, and text inside an
    <address> element, are now an address signal (`classifier.py`; the model is told `address_markup`).
AR. Cards that are each wholly one link, the same on every sample ("Join us on Slack", "Follow us on Twitter",
    each card a link holding its heading and teaser), with a heading above them, sat in the job's region (the
    whole <body> when the title and the text sit in separate sections): their headings made the block "a heading
    inside the job content" and it stayed whole. A constant block of such link cards is judged (`link_cards`,
    `template.py`); the job's own headings, text and lists stay.

Each test fails on the code before round 13 (checked on commit e6241ec); AR's guard tests the new
`link_cards` alone.
"""

from __future__ import annotations

from lxml import html as lxml_html

from noise_helpers import FOUR_JOBS, SITE_MENU, learn_four_jobs

JOBS = FOUR_JOBS

MENU = SITE_MENU


def _learn_and_prepare(make, origin: str, unseen: int = 3) -> str:
    return learn_four_jobs(make, origin, unseen)[1]


def _office(name: str, street: str, town: str, phone: str, target: str) -> str:
    return (f"<li><address><a href='{target}' rel='nofollow external'><h3>{name}</h3>{street}<br>Centro<br>"
            f"{town}</a><br><a class='tel' href='tel:{phone.replace(' ', '')}'>{phone}</a></address></li>")


def _offices_page(targets):
    def page(k, slug, title, text, need):
        offices = (_office("Vila Nova", "Rua das Flores, 81, sala 12", "Vila Nova - VN, Lusitânia", "+55 21 5550 1234",
                           targets[0])
                   + _office("Porto Alto", "Trav. do Mercado, 7, conj 3", "Porto Alto - PA, Lusitânia",
                             "+55 11 5550 9876", targets[1]))
        return (f"<html><head><title>{title} | Veltora</title></head><body><header>{MENU}</header>"
                f"<section><h1>{title}</h1><p>{text}</p><ul><li>{need}</li></ul></section>"
                f"<footer><div><ul class='offices'>{offices}</ul></div>"
                "<nav><p>© 2024 Veltora.</p><ul><li><a href='/oss/'>Open Source</a></li><li><a href='/blog/'>Blog</a>"
                "</li><li><a href='/press/'>Press kit</a></li></ul></nav></footer></body></html>")
    return page


def test_aq_an_office_linked_to_a_map_stays_with_its_phone():
    markdown = _learn_and_prepare(_offices_page(["https://goo.gl/maps/abc1", "https://www.google.com/maps/place/x"]),
                                  "https://veltora.example")
    assert "Vila Nova - VN, Lusitânia" in markdown and "Rua das Flores, 81, sala 12" in markdown
    assert "Porto Alto - PA, Lusitânia" in markdown and "+55 21 5550 1234" in markdown
    assert "Press kit" not in markdown and "Products" not in markdown  # the menus still go
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_aq_an_office_in_an_address_element_stays_whatever_its_link():
    markdown = _learn_and_prepare(_offices_page(["/offices/vila-nova/", "/offices/porto-alto/"]),
                                  "https://veltora.example")
    assert "Vila Nova - VN, Lusitânia" in markdown and "Porto Alto - PA, Lusitânia" in markdown
    assert "Press kit" not in markdown


def _cards_page(k, slug, title, text, need):
    cards = "".join(f"<li><a href='https://{host}/veltora'><h3>{name}</h3><div><p>{teaser}</p></div></a></li>"
                    for host, name, teaser in (("chat.example", "Chat", "Get an invitation to our chat rooms."),
                                               ("birds.example", "Birds", "Follow us for our latest updates."),
                                               ("faces.example", "Faces", "Like and follow us there."),
                                               ("work.example", "Work", "See our profile and our people.")))
    # The title and the text sit in separate sections: the job's region is the whole <body>.
    return (f"<html><head><title>{title}</title></head><body><header>{MENU}</header>"
            f"<section><div><h1>{title}</h1><p>May {k + 3}, 2024</p></div></section>"
            f"<section><div><h4>Responsibilities</h4><p>{text}</p><ul><li>{need}</li></ul></div></section>"
            f"<section><header><h2>Learn more by talking with the whole team</h2></header><ul>{cards}</ul></section>"
            "<footer><p>© 2024 Veltora</p></footer></body></html>")


def test_ar_constant_link_cards_under_a_heading_go_from_the_jobs_region():
    markdown = _learn_and_prepare(_cards_page, "https://veltora.example")
    assert "Learn more by talking" not in markdown and "Get an invitation" not in markdown
    assert "Follow us for our latest updates" not in markdown
    assert "Steel Buyer" in markdown and "You buy sheet and tube from mills." in markdown
    assert "Responsibilities" in markdown and "Experience in purchasing" in markdown and "May 6, 2024" in markdown


def test_ar_guard_only_cards_wholly_one_link_count():
    from gigflow.noise.learn.template import link_cards

    cards = lxml_html.fromstring("<section><h2>Learn more by talking with the whole team</h2><ul>" + "".join(
        f"<li><a href='https://{h}/x'><h3>{h}</h3><p>Teaser of {h}.</p></a></li>"
        for h in ("a.example", "b.example", "c.example")) + "</ul></section>")
    assert link_cards(cards)
    # Items with words of their own beside the link (a requirement naming a tool) are the job's list, no cards.
    own_words = lxml_html.fromstring("<ul>" + "".join(
        f"<li>Experience with <a href='https://{h}/'>{h}</a> in production</li>"
        for h in ("a.example", "b.example", "c.example")) + "</ul>")
    assert not link_cards(own_words)
    # Cards under a paragraph of running text: no heading's words only.
    prose = lxml_html.fromstring("<div><p>We build dairy lines for farms across the north and hire all year.</p><ul>"
                                 + "".join(f"<li><a href='https://{h}/'>{h}</a></li>"
                                           for h in ("a.example", "b.example", "c.example")) + "</ul></div>")
    assert not link_cards(prose)
