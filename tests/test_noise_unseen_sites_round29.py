"""Round 29 of issue #23: what the hold-outs first measured in wave 3's twelfth stop showed, on synthetic pages.

- GP (hold-out 48, a niche board's compiled site): each posting's title stands only in the board's header bar
  ("All Jobs" and the title, no <h1> anywhere). Self-references make a page's own title a placeholder when
  regions are compared, so the bar looked the same on every sample, showed no other fact, and went: the title
  lost on five of five pages. A region that holds every visible statement of the posting's title (its <h1> or
  its document title, less what the samples' titles share) now keeps it; its other parts are reviewed alone.
- GQ (hold-out 31, first seen in this stop's review): a footer quoting a thesis title, "Sampling Copyright: an
  examination of ...", named the site's owner "an examination of". The bare word "copyright" inside a sentence
  is no notice: there it needs a sign or a year after it.

- GR (hold-out 52, a web agency's careers pages): the footer's "hello@madebyshape.co.uk", the page's only mailbox,
  went. A general mailbox (hello@, info@) in the footer of one employer's site is the employer's contact where its
  domain spells the employer's name; the site owner was named "MadeByShape Ltd" (its copyright line), and the
  legal form kept the name from matching the domain. The name is compared without its legal form too.

- GS (hold-out 52, the same agency): the page's sections are siblings in <body>, so the job's region (the title's
  and the varying text's common ancestor) was the whole page, and the sections every page shares beside the
  posting, "Our Team" with its staff cards and "Feel the atmosphere" with 62 photos, stayed as "a heading inside
  the job content": 38,000 of the page's 43,000 characters of Markdown. A section under its own heading, the same
  on every sample, outside the varying text and apart from the title, is the site's and judged.

Each behaviour test fails on the code before round 29 (commit 58915b7); the guards pass on both.
"""

from __future__ import annotations

import lxml.html
from noise_helpers import learn_four_jobs

from gigflow.noise.learn.owner import copyright_holders

ORIGIN = "https://board.example"


def _header_bar(k, slug, title, text, need):
    # The posting's own text never repeats its title (as on the board measured).
    return (f"<html><head><title>{title}</title></head><body id='job'><div class='header'>"
            f"<a href='https://board.example'>All Jobs</a><div class='title'>{title}</div></div>"
            f"<div class='row'><div class='post'><p>{text} You join a team of twelve and report to the head of "
            f"the hall.</p><ul><li>{need}</li></ul></div><div class='sidebar'><a class='button' "
            f"href='https://ats.example/apply/{k}'>Apply</a></div></div><div id='footer'><p>Every job goes through "
            "a manual review before it is published here.</p></div></body></html>")


def test_gp_a_title_only_in_the_boards_header_bar_stays():
    _result, markdown = learn_four_jobs(_header_bar, ORIGIN)
    assert "Steel Buyer" in markdown, markdown
    assert "All Jobs" not in markdown and "manual review" not in markdown


def test_gp_guard_a_title_the_posting_repeats_leaves_the_bar_to_go():
    def repeated(k, slug, title, text, need):
        return _header_bar(k, slug, title, text, need).replace("<div class='post'><p>",
                                                               f"<div class='post'><h1>{title}</h1><p>")
    _result, markdown = learn_four_jobs(repeated, ORIGIN)
    assert markdown.count("Steel Buyer") == 1 and "All Jobs" not in markdown, markdown


def test_gq_the_word_copyright_inside_a_sentence_names_no_owner():
    def holders(html):
        return copyright_holders(lxml.html.fromstring(html))
    assert holders("<footer><p>Douglas wrote a thesis entitled \"Sampling Copyright: an examination of law\"."
                   "</p></footer>") == []
    assert holders("<footer><p>All content copyright 2020 Acme Works</p></footer>") == ["Acme Works"]
    assert holders("<footer><p>Copyright Acme GmbH</p><p>Site by Studio. Copyright © Acme</p></footer>") == [
        "Acme GmbH", "Acme"]


def _agency_footer(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Careers</title></head><body><header><a href='/'>Home</a> "
            f"<a href='/work/'>Work</a> <a href='/careers/'>Careers</a></header><main><h1>{title}</h1>"
            f"<p>{text} You join a studio of twelve near the station.</p><ul><li>{need}</li></ul></main>"
            "<footer><div class='touch'><p>Get in touch</p><a href='mailto:hello@acmeworks.example'>"
            "hello@acmeworks.example</a></div><div class='legal'>© Acme Works Ltd 2025 | All Rights Reserved</div>"
            "<nav><a href='/about/'>About</a> <a href='/blog/'>Blog</a> <a href='/faq/'>FAQs</a></nav></footer>"
            "</body></html>")


def test_gr_the_footers_general_mailbox_at_the_owners_domain_stays():
    _result, markdown = learn_four_jobs(_agency_footer, ORIGIN)
    assert "hello@acmeworks.example" in markdown, markdown
    assert "FAQs" not in markdown


def _sections_in_body(k, slug, title, text, need):
    cards = "".join(f"<div class='card'><img src='/team/{name}.jpg' alt='{name}'><p>{name}, designer</p></div>"
                    for name in ("Ann", "Ben", "Cem", "Dia", "Eve", "Fay", "Gus", "Hal"))
    return (f"<html><head><title>{title} | Careers</title></head><body><div class='hero'><h2>We're looking for a "
            f"{title}</h2><p>Full Time</p></div><div class='posting'><p>{text} You join a studio of twelve near "
            f"the station and report to the studio lead.</p><h3>What we need</h3><ul><li>{need}</li></ul></div>"
            f"<div class='team'><h2>Our Team</h2><p>Meet your future colleagues.</p>{cards}</div>"
            "<div class='apply'><h2>Think you fit the bill?</h2><p>Send your CV to jobs@acmeworks.example</p></div>"
            "</body></html>")


def test_gs_a_section_every_page_shares_beside_the_posting_goes():
    _result, markdown = learn_four_jobs(_sections_in_body, ORIGIN)
    assert "Our Team" not in markdown and "Meet your future colleagues" not in markdown, markdown
    assert "Experience in purchasing" in markdown and "jobs@acmeworks.example" in markdown
