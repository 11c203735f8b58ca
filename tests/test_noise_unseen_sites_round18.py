"""Round 18 of issue #23: a template region whose every fact the rest of the page states again (DA).

The rules keep a site footer, header or sidebar whenever it shows a job-fact signal (the employer's name, an
address, a phone, a mailbox). Where the job's own text states each of those facts too ("Contact: Kornfeld
Mühlenbau, Lindenweg 4, 12345 Falkenau, +49 30 1234 5678"), the region only repeats them: after the rules have
decided, it is removed by trial and goes when every sample's Markdown without it still states each of its facts
(`restated_regions.py`). A region stating a fact nothing else states stays whole.

Each behaviour test fails on the code before round 18 (checked on commit 39715b7 with the trial switched off);
the guards pass on both.
"""

from __future__ import annotations

from noise_helpers import SITE_MENU, learn_four_jobs

OFFICE = ("<div><p>Kornfeld Mühlenbau</p><p>Lindenweg 4, 12345 Falkenau</p>"
          "<p>Tel. <a href='tel:+493012345678'>+49 30 1234 5678</a></p></div>")


def _site(contact: str, footer: str = OFFICE, header: str = f"<header>{SITE_MENU}</header>", head: str = ""):
    def page(_k, _slug, title, text, need):
        return (f"<html><head><title>{title} | Kornfeld</title>{head}</head><body>{header}"
                f"<main><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul>"
                f"<h2>Contact</h2><p>{contact}</p></main>"
                "<footer><div><ul><li><a href='/imprint/'>Imprint</a></li><li><a href='/privacy/'>Privacy</a></li>"
                f"</ul></div>{footer}</footer></body></html>")
    return page


def _markdown(make) -> str:
    return learn_four_jobs(make, "https://kornfeld.example")[1]


def test_da_a_footer_office_the_job_restates_goes_whole():
    markdown = _markdown(_site("Kornfeld Mühlenbau, Lindenweg 4, 12345 Falkenau. Questions: +49 30 1234 5678"))
    assert "Kornfeld Mühlenbau, Lindenweg 4, 12345 Falkenau. Questions: +49 30 1234 5678" in markdown
    assert markdown.count("Lindenweg 4") == 1 and markdown.count("1234 5678") == 1  # the footer's copies went
    assert "Imprint" not in markdown and "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_da_only_the_restated_part_goes_where_the_job_states_the_phone_alone():
    markdown = _markdown(_site("Kornfeld Mühlenbau. Questions: +49 30 1234 5678"))
    assert markdown.count("1234 5678") == 1  # the footer's phone line repeated the job's
    assert "Lindenweg 4, 12345 Falkenau" in markdown  # the office's address, stated nowhere else, stays


def test_da_guard_a_footer_address_and_phone_the_job_does_not_state_stay():
    markdown = _markdown(_site("Kornfeld Mühlenbau, Birkenallee 9, 12399 Falkenau. Questions: +49 30 9876 5432"))
    assert "Lindenweg 4, 12345 Falkenau" in markdown and "+49 30 1234 5678" in markdown


def test_da_guard_a_header_naming_the_employer_nothing_else_names_stays():
    header = (f"<header><a href='/'><img src='/logo.png' alt='Kornfeld Mühlenbau'></a>{SITE_MENU}</header>")
    head = "<meta property='og:site_name' content='Kornfeld Mühlenbau'>"
    markdown = _markdown(_site("Questions: +49 30 9876 5432", footer="", header=header, head=head))
    assert "Kornfeld Mühlenbau" in markdown
