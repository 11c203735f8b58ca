"""Round 14 of issue #23 (found on hold-out 7's bee42 and nanofrontier, studied since round 12).

AS. The site footer restates what the job's own text states in full. On a one-employer site the footer's
    copyright line ("© 2024 Acme GmbH") is the employer's statement (round 11's AH) and its office address a
    location (rounds 9-10), because often nothing else on the page states them. Where the job's text itself
    gives the employer's legal name, with its address ("Acme GmbH, Birkenallee 9, D-12399 Falkenau"), the footer
    only repeats it: the copyright line and the office go when every sample's Markdown without them still names
    the owner with a legal form (and an address on that line, where the office goes). Decided by trial
    (`restated.py`). Where the job's text names the owner without a legal form, the copyright line stays (the
    hold-out 6 labels count it as the employer).

Each test but the guards fails on the code before round 14 (checked on commit 1c23d97).
"""

from __future__ import annotations

from gigflow.noise.learn.restated import restated_kinds
from gigflow.noise.signal import COPYRIGHT_NOTE, LABEL_VALUE_KIND, LABEL_VALUE_NOTE, Signal
from noise_helpers import FOUR_JOBS, SITE_MENU, learn_four_jobs

JOBS = FOUR_JOBS

MENU = SITE_MENU


def _learn_and_prepare(make, origin: str = "https://kornfeld.example", unseen: int = 3) -> str:
    return learn_four_jobs(lambda _k, _slug, *job: make(*job), origin, unseen)[1]


def _site(employer_in_text: str, holder: str = "Kornfeld Mühlenbau GmbH"):
    def page(title, text, need):
        return (f"<html><head><title>{title} | Kornfeld</title></head><body><header>{MENU}</header>"
                f"<main><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul>"
                f"<h2>Contact</h2><ul><li>{employer_in_text}</li><li>Mail: jobs@kornfeld.example</li></ul></main>"
                "<footer><div><ul><li><a href='/imprint/'>Imprint</a></li><li><a href='/privacy/'>Privacy</a></li>"
                "</ul></div><div><ul><li>Lindenweg 4</li><li>D-12345 Falkenau</li></ul></div>"
                f"<div><p>© 2024 {holder}. Alle Rechte vorbehalten</p></div></footer></body></html>")
    return page


def test_as_the_footer_office_and_copyright_go_where_the_job_states_the_employer_in_full():
    markdown = _learn_and_prepare(_site("Kornfeld Mühlenbau GmbH, Birkenallee 9, D-12399 Falkenau"))
    assert "Kornfeld Mühlenbau GmbH, Birkenallee 9, D-12399 Falkenau" in markdown  # the job's own statement
    assert "Lindenweg 4" not in markdown and "D-12345 Falkenau" not in markdown
    assert "Alle Rechte vorbehalten" not in markdown and "Imprint" not in markdown
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_as_a_copyright_line_goes_where_the_job_names_the_employer_with_a_legal_form():
    # No address in the footer: the job's legal name alone makes the copyright line a repetition.
    def page(title, text, need):
        return (f"<html><head><title>{title} | Veltora</title></head><body><header>{MENU}</header>"
                f"<main><h1>{title}</h1><p>{text}</p><ul><li>{need}</li></ul>"
                "<p>Employer: Veltora株式会社 (Sendai)</p></main>"
                "<footer><div><p>© 2024 Veltora, Inc.</p></div><div><a href='/privacy/'>Privacy policy</a> "
                "<a href='https://corp.veltora.example/'>Corporate site</a></div></footer></body></html>")
    markdown = _learn_and_prepare(page, "https://careers.veltora.example")
    assert "Veltora株式会社" in markdown
    assert "© 2024 Veltora, Inc." not in markdown and "Privacy policy" not in markdown


def test_as_guard_without_the_employers_statement_the_footer_stays():
    markdown = _learn_and_prepare(_site("Birkenallee 9, D-12399 Falkenau"))
    assert "Lindenweg 4" in markdown and "D-12345 Falkenau" in markdown
    assert "Kornfeld Mühlenbau GmbH" in markdown  # the copyright line, the one statement of the employer
    assert "Imprint" not in markdown


def test_as_guard_a_name_without_legal_form_in_the_job_keeps_the_copyright_line():
    markdown = _learn_and_prepare(_site("Kornfeld Mühlenbau, Birkenallee 9, D-12399 Falkenau",
                                        holder="Kornfeld Mühlenbau"))
    assert "© 2024 Kornfeld Mühlenbau" in markdown


def test_as_only_employer_address_and_location_signals_are_restatements():
    assert restated_kinds([Signal("location", "44787 Bochum"), Signal("address", "Kortumstraße 68"),
                           Signal("employer", "Acme GmbH", (COPYRIGHT_NOTE,))]) == {"location", "address", "employer"}
    assert restated_kinds([Signal("employer", "Acme, Inc.", (COPYRIGHT_NOTE,))]) == {"employer"}
    assert not restated_kinds([Signal("location", "Berlin"), Signal("contact", "+49 30 1234567")])
    assert not restated_kinds([Signal(LABEL_VALUE_KIND, "", (LABEL_VALUE_NOTE,))])
    assert not restated_kinds([])
