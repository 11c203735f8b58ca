"""Round 36 of issue #23: what hold-outs 138-145 showed at first measurement, on synthetic pages.

- JI (hold-out 140, an education group's Gatsby careers): the footer lists two offices, each its lines and a
  "View map" link. The second office went as a template region whose every fact the rest of the page states: its
  one fact read was the map link's words, and the first office's link says the same words. A link to a map states
  its place by where it points, not by its words.
- JJ (the same footer): the first office's lines, a block of their own beside the map link, were reviewed apart
  from it; no pattern reads "Floor 2-3, building 17T4, No. 1 …" as an address, and the lines went while the link
  stayed. The lines whose only neighbour is a link to a map are the place it points to, however they are written.
- JK (hold-out 144, a landscaping firm's WordPress careers): the footer's one office, "12275 Weckman Road" (a link
  to a map) above "Shakopee, MN 55379", read as two offices in two towns, the house number as a postcode and the
  street as its town; the job names Shakopee, so the "other town's office", the street, went. A line ending in a
  street's word is no postcode and town.
- JL (the same site): its footer's "hello@" mailbox went as a general mailbox, though it is the one employer's: the
  owner's name came from the page's JSON-LD as "Mom&#039;s Design Build" (WordPress SEO plugins write entities
  there), which no mailbox's domain spells. Names read from JSON-LD are unescaped as the meta tags' are.

Each behaviour test fails on the code before round 36 (commit 9b617b8).
"""

from __future__ import annotations

from noise_helpers import SITE_MENU, learn_four_jobs

ORIGIN = "https://www.acme-works.example"

# Office lines in words no address pattern reads (no street word, no postcode): a floor, a building, a number.
OFFICES = (("Head office", "Tầng 2-3, tòa 17T4, Số 1 Lê Văn Lương", "https://maps.app.goo.gl/HeadOffice1"),
           ("Branch office", "Tầng 1-2, tòa QC, Số 150 Nguyễn Xí", "https://maps.app.goo.gl/BranchOffice2"))


def _with_mapped_offices(k, slug, title, text, need):
    offices = "".join(f"<div class='office'><div class='lines'><div>{name}</div><div>{lines}</div></div>"
                      f"<a href='{href}' target='_blank'>View map</a></div>" for name, lines, href in OFFICES)
    return (f"<html><head><title>{title} | Acme Works</title></head><body><header>{SITE_MENU}</header>"
            f"<main><article><h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p>"
            f"<ul><li>{need}</li></ul></article></main><footer><div class='brand'>Learning for everyone, every day"
            f"</div><div class='offices'>{offices}</div><div>© 2024 Acme Works</div></footer></body></html>")


def test_ji_jj_each_office_beside_its_map_link_stays_whole_on_an_unseen_page():
    result, markdown = learn_four_jobs(_with_mapped_offices, ORIGIN)
    for _name, lines, href in OFFICES:
        assert lines in markdown and href in markdown, markdown
    assert "Learning for everyone" not in markdown, markdown  # the template around them still goes
    assert "Experience in purchasing" in markdown, markdown


def test_jj_map_link_beside_reads_only_a_lone_neighbour():
    import lxml.html

    from gigflow.noise.learn.region_review import map_link_beside

    page = lxml.html.fromstring(_with_mapped_offices(0, "welder", "Pipe Welder", "x", "y"))
    lines = page.find_class("lines")
    assert [map_link_beside(block) for block in lines] == ["View map", "View map"]
    # a neighbour saying more than its map link ("Open 9-17"), or words loose in the parent: no lone link
    first_map = "<a href='https://maps.app.goo.gl/HeadOffice1'"
    page_html = _with_mapped_offices(0, "welder", "Pipe Welder", "x", "y")
    busy = lxml.html.fromstring(page_html.replace(first_map, "<p>Open 9-17</p>" + first_map))
    assert map_link_beside(busy.find_class("lines")[0]) == ""
    loose = lxml.html.fromstring(page_html.replace("</div>" + first_map, "</div>Call first" + first_map))
    assert map_link_beside(loose.find_class("lines")[0]) == ""
    # a link of another kind beside it is no map
    other = lxml.html.fromstring("<div><div class='lines'>Somewhere</div><a href='/contact/'>View map</a></div>")
    assert map_link_beside(other.find_class("lines")[0]) == ""


def _with_one_office(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Acme Works</title></head><body><header>{SITE_MENU}</header>"
            f"<main><article><h1>{title}</h1><p>{text} You join our crew in Shakopee.</p><ul><li>{need}</li></ul>"
            "</article></main><footer><div class='contact'><p><a href='https://www.google.com/maps/dir//12275+"
            "Weckman+Rd'>12275 Weckman Road</a></p><p>Shakopee, MN 55379</p><p><a href='tel:+19525550100'>952 555 "
            "0100</a></p></div><div>Landscapes that last</div></footer></body></html>")


def test_jk_a_street_line_is_no_second_office_of_the_footer():
    from gigflow.noise.learn.office_list import office_town

    result, markdown = learn_four_jobs(_with_one_office, ORIGIN)
    assert "12275 Weckman Road" in markdown and "Shakopee, MN 55379" in markdown, markdown
    assert "Landscapes that last" not in markdown, markdown
    assert office_town("12275 Weckman Road") == "" and office_town("31200 Toulouse") == "toulouse"


def _with_escaped_owner(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Jo's Garden Works</title><script type='application/ld+json'>"
            '{"@context": "https://schema.org", "@type": "Organization", "name": "Jo&#039;s Garden Works"}'
            f"</script></head><body><header>{SITE_MENU}</header><main><article><h1>{title}</h1><p>{text} You join "
            f"a team of twelve in the north hall.</p><ul><li>{need}</li></ul></article></main><footer><p><a href="
            "'mailto:hello@josgardenworks.example'>hello@josgardenworks.example</a></p><p>Gardens that grow with "
            "you</p></footer></body></html>")


def test_jl_the_owner_named_with_entities_in_json_ld_keeps_its_footer_mailbox():
    from gigflow.noise.learn.owner import json_ld_owner_names

    result, markdown = learn_four_jobs(_with_escaped_owner, ORIGIN)
    assert "hello@josgardenworks.example" in markdown, markdown
    assert "Gardens that grow" not in markdown, markdown
    assert json_ld_owner_names(_with_escaped_owner(0, "a", "b", "c", "d")) == ["Jo's Garden Works"]
